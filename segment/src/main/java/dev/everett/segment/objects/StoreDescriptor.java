package dev.everett.segment.objects;

import dev.everett.api.BackspaceCode;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;
import dev.everett.api.SegmentFormat;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import dev.everett.segment.io.AtomicFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.zip.CRC32C;

/**
 * The object store's descriptor, {@code ROOT/OBJECTS}: the whole policy the store's objects are
 * written and read under. Everett's files record the unit, W, K, the backspace code and the
 * value width fields (and the directory magic names the format), but nothing records the value
 * grammar: a store written with optional values and read as raw would hand out values with
 * their presence tag on. So the store records every field here, once, when it is first opened,
 * and refuses to open under any other policy.
 *
 * <p>Text, one {@code name=value} a line in a fixed order after the first line
 * {@code everett-objects 1}, then {@code crc32c=<8 hex>} over every byte before that line
 * (docs/format.md, "Object store descriptor"). Written once, atomically and never replaced (temp
 * file, force, link, force the directory).
 */
final class StoreDescriptor {
    /** The descriptor's name under the store's root. */
    static final String FILE_NAME = dev.everett.api.ObjectStore.DESCRIPTOR_NAME;
    private static final String FIRST_LINE = "everett-objects 1";
    private static final String CRC_PREFIX = "crc32c=";
    /** Far above any descriptor this code writes; a larger file is not one. */
    private static final int MAX_BYTES = 4096;

    /** One recorded policy field: its line name, its name in messages, and how to print it. */
    private record Field(String name, String described, Function<Policy, String> value) {
    }

    private static final List<Field> FIELDS = List.of(
            new Field("format", "segment format", p -> p.format().name()),
            new Field("unit", "unit", p -> p.unit().name()),
            new Field("blockWidth", "block width W", p -> Integer.toString(p.blockWidth())),
            new Field("groupSize", "group size K", p -> Long.toString(p.groupSize())),
            new Field("valueWidth", "value width", p -> Long.toString(p.valueWidth().units())),
            new Field("backspaceCode", "backspace code", p -> Integer.toString(p.backspace().code())),
            new Field("backspaceParameter", "backspace parameter", p -> Long.toString(p.backspace().parameter())),
            new Field("grammar", "value grammar", p -> p.grammar().name()));

    private StoreDescriptor() {
    }

    /** As {@link #check}, for a store that writes nothing: a missing descriptor is an error, not written. */
    static void checkExisting(Path root, Policy policy) throws IOException {
        Path file = root.resolve(FILE_NAME);
        if (!Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new java.nio.file.NoSuchFileException(file.toString(), null, "object store descriptor is missing (a read-only store writes none)");
        }
        compare(file, read(file), policy);
    }

    /**
     * Checks that the store at {@code root} was made under {@code policy}, recording it first if
     * the store has no descriptor yet.
     *
     * @throws PolicyMismatchException  naming the first field that differs, the stored value and the asked one
     * @throws CorruptSegmentException  if the descriptor is damaged (naming it and the offset)
     */
    static void check(Path root, Policy policy) throws IOException {
        Path file = root.resolve(FILE_NAME);
        if (!Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try {
                write(file, policy);
                return;
            } catch (FileAlreadyExistsException raced) {
                // Another opener recorded its policy first: ours must agree with it.
            }
        }
        compare(file, read(file), policy);
    }

    static byte[] encode(Policy policy) {
        StringBuilder s = new StringBuilder(FIRST_LINE).append('\n');
        for (Field f : FIELDS) {
            s.append(f.name).append('=').append(f.value.apply(policy)).append('\n');
        }
        byte[] body = s.toString().getBytes(StandardCharsets.US_ASCII);
        return (s + CRC_PREFIX + crcHex(body, body.length) + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static void write(Path file, Policy policy) throws IOException {
        byte[] bytes = encode(policy);
        try (AtomicFile out = new AtomicFile(file)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                out.channel().write(b);
            }
            out.publish();
        }
    }

    /** The policy the descriptor records. */
    static Policy read(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(file + " is a directory, not the object store descriptor");
        }
        long size = Files.size(file);
        if (size > MAX_BYTES) {
            throw new CorruptSegmentException(file, MAX_BYTES, "an object store descriptor is at most " + MAX_BYTES + " bytes, this file has " + size);
        }
        byte[] b = Files.readAllBytes(file);
        int firstLine = FIRST_LINE.length() + 1;
        if (b.length < firstLine || !new String(b, 0, firstLine, StandardCharsets.ISO_8859_1).equals(FIRST_LINE + "\n")) {
            throw new CorruptSegmentException(file, 0, "not an object store descriptor: the first line must be '" + FIRST_LINE + "'");
        }
        String text = new String(b, StandardCharsets.ISO_8859_1);
        int crcLine = text.lastIndexOf('\n', text.length() - 2) + 1;
        if (!text.endsWith("\n") || !text.startsWith(CRC_PREFIX, crcLine) || text.length() - crcLine != CRC_PREFIX.length() + 9) {
            throw new CorruptSegmentException(file, crcLine, "the last line must be " + CRC_PREFIX + "<8 hex digits> followed by a line feed");
        }
        String stored = text.substring(crcLine + CRC_PREFIX.length(), text.length() - 1);
        String computed = crcHex(b, crcLine);
        if (!stored.equals(computed)) {
            throw new CorruptSegmentException(file, crcLine + CRC_PREFIX.length(),
                    "descriptor CRC32C mismatch: stored " + stored + ", computed " + computed);
        }
        // The CRC holds; the fields must still be exactly those this code writes, in order.
        // Read by position: FIELDS lists format, unit, W, K, value width, backspace code and parameter, grammar.
        String[] values = new String[FIELDS.size()];
        int at = firstLine;
        for (int i = 0; i < FIELDS.size(); i++) {
            String prefix = FIELDS.get(i).name + "=";
            int end = text.indexOf('\n', at);
            if (!text.startsWith(prefix, at) || end < 0 || end > crcLine) {
                throw new CorruptSegmentException(file, at, "expected the line " + prefix + "<value>");
            }
            values[i] = text.substring(at + prefix.length(), end);
            at = end + 1;
        }
        if (at != crcLine) {
            throw new CorruptSegmentException(file, at, "unexpected line before the " + CRC_PREFIX + " line");
        }
        Policy p;
        try {
            p = new Policy(Unit.valueOf(values[1]), Integer.parseInt(values[2]), Long.parseLong(values[3]),
                    new ValueWidth(Long.parseLong(values[4])),
                    new BackspaceCode(Integer.parseInt(values[5]), Long.parseLong(values[6])),
                    ValueGrammar.valueOf(values[7]), SegmentFormat.valueOf(values[0]));
        } catch (IllegalArgumentException e) {
            throw new CorruptSegmentException(file, firstLine, "the recorded policy is not a valid one: " + e.getMessage());
        }
        if (!java.util.Arrays.equals(b, encode(p))) {
            throw new CorruptSegmentException(file, java.util.Arrays.mismatch(b, encode(p)), "a field is not written in its canonical form");
        }
        return p;
    }

    private static void compare(Path file, Policy stored, Policy asked) {
        for (Field f : FIELDS) {
            String s = f.value.apply(stored);
            String a = f.value.apply(asked);
            if (!s.equals(a)) {
                throw new PolicyMismatchException(file, f.described + " (recorded by the object store)", a, s);
            }
        }
    }

    private static String crcHex(byte[] b, int n) {
        CRC32C crc = new CRC32C();
        crc.update(b, 0, n);
        return java.util.HexFormat.of().toHexDigits((int) crc.getValue());
    }
}
