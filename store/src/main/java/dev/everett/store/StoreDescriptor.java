package dev.everett.store;

import dev.everett.api.BackspaceCode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import dev.everett.compaction.Layout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The {@code STORE} file: what a store was created with and every later open must agree on (the
 * segment policy and the level layout). Text, one {@code name=value} a line, after a first line {@code everett-store 1},
 * ending with {@code crc32c=<hex>} over every byte before that line. Written once, atomically.
 */
record StoreDescriptor(Policy policy, Layout layout) {

    static final String FILE_NAME = "STORE";
    private static final String FIRST_LINE = "everett-store 1";

    static void write(StoreFiles files, Path dir, StoreDescriptor descriptor) throws IOException {
        files.writeAtomically(dir.resolve(FILE_NAME), bytes(descriptor));
    }

    /** The file's bytes: the one form {@link #write} gives a descriptor, and the only one {@link #read} accepts. */
    private static byte[] bytes(StoreDescriptor descriptor) {
        StringBuilder s = new StringBuilder(FIRST_LINE).append('\n');
        Map<String, String> fields = fields(descriptor.policy);
        fields.put("tree.layout", descriptor.layout.name());
        for (Map.Entry<String, String> e : fields.entrySet()) {
            s.append(e.getKey()).append('=').append(e.getValue()).append('\n');
        }
        byte[] body = s.toString().getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C();
        crc.update(body);
        String all = s + "crc32c=" + String.format("%08x", crc.getValue()) + "\n";
        return all.getBytes(StandardCharsets.UTF_8);
    }

    /** Reads what the store holds; a damaged file is refused naming the offset and rule. */
    static StoreDescriptor read(StoreFiles files, Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        byte[] b = files.readAll(file);
        // Read one char per byte, so offsets in the text are offsets in the file whatever the bytes
        // are (the fields are ASCII; anything else fails their parse below).
        String text = new String(b, StandardCharsets.ISO_8859_1);
        int crcLine = text.lastIndexOf("crc32c=");
        if (!text.startsWith(FIRST_LINE + "\n") || crcLine < 0 || !text.endsWith("\n")) {
            throw new CorruptFileException(file, 0, "not an everett-store descriptor (first line '" + FIRST_LINE + "', last line crc32c=<hex>)");
        }
        int bodyBytes = crcLine;
        CRC32C crc = new CRC32C();
        crc.update(b, 0, bodyBytes);
        String stored = text.substring(crcLine + 7, text.length() - 1);
        if (!stored.equals(String.format("%08x", crc.getValue()))) {
            throw new CorruptFileException(file, bodyBytes, "descriptor CRC32C mismatch: stored " + stored
                    + ", computed " + String.format("%08x", crc.getValue()));
        }
        Map<String, String> f = new LinkedHashMap<>();
        int offset = FIRST_LINE.length() + 1;
        for (String line : text.substring(offset, crcLine).split("\n")) {
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new CorruptFileException(file, offset, "line '" + line + "' is not name=value");
            }
            f.put(line.substring(0, eq), line.substring(eq + 1));
            offset += line.length() + 1;
        }
        StoreDescriptor d;
        try {
            d = new StoreDescriptor(new Policy(Unit.valueOf(need(f, "policy.unit")),
                    Integer.parseInt(need(f, "policy.blockWidth")),
                    Long.parseLong(need(f, "policy.groupSize")),
                    new ValueWidth(Long.parseLong(need(f, "policy.valueWidth"))),
                    new BackspaceCode(Integer.parseInt(need(f, "policy.backspaceCode")), Long.parseLong(need(f, "policy.backspaceParameter"))),
                    ValueGrammar.valueOf(need(f, "policy.grammar")),
                    SegmentFormat.valueOf(need(f, "policy.format"))),
                    Layout.valueOf(need(f, "tree.layout")));
        } catch (IllegalArgumentException e) {
            throw new CorruptFileException(file, 0, "descriptor policy is invalid: " + e.getMessage());
        }
        // One form only: fields in order, each once, nothing else, as write() puts them. A file
        // that checks out but says the policy another way was not written by this code.
        byte[] canonical = bytes(d);
        if (!Arrays.equals(b, canonical)) {
            throw new CorruptFileException(file, Arrays.mismatch(b, canonical), "descriptor is not in the form this store writes"
                    + " (fields in order, each once, nothing else)");
        }
        return d;
    }

    /** The policy as the descriptor names it, for messages. */
    static String describe(Policy p) {
        return p.format() + " " + p.unit() + " W=" + p.blockWidth() + " K=" + p.groupSize() + " values " + p.valueWidth()
                + " backspace " + p.backspace() + " grammar " + p.grammar();
    }

    private static Map<String, String> fields(Policy p) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("policy.format", p.format().name());
        f.put("policy.unit", p.unit().name());
        f.put("policy.blockWidth", Integer.toString(p.blockWidth()));
        f.put("policy.groupSize", Long.toString(p.groupSize()));
        f.put("policy.valueWidth", Long.toString(p.valueWidth().units()));
        f.put("policy.backspaceCode", Integer.toString(p.backspace().code()));
        f.put("policy.backspaceParameter", Long.toString(p.backspace().parameter()));
        f.put("policy.grammar", p.grammar().name());
        return f;
    }

    private static String need(Map<String, String> f, String name) {
        String v = f.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing " + name);
        }
        return v;
    }
}
