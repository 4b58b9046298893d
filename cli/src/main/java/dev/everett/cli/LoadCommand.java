package dev.everett.cli;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.Policy;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentWriter;
import dev.everett.api.ValueGrammar;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code load}: a segment file and its index chain from JSON lines. */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = {"Writes a segment file and its index chain from JSON lines.",
            "One {\"key\": HEX, \"value\": HEX} object a line, \"value\": null for a tombstone, in any key order; "
                + "duplicate keys are refused with their line numbers. The index chain is written beside OUT as "
                + "OUT.chain/."})
final class LoadCommand implements Callable<Integer> {
    /** Native formats on the command line. */
    enum Format { kv02, kv03 }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--format", required = true, paramLabel = "kv02|kv03",
            description = "kv02 (byte units, varint backspaces) or kv03 (Everett's bit-unit string policy).")
    Format format;

    @Option(names = "--w", paramLabel = "W", defaultValue = "15", description = "Block width W: records per Elias-Fano block (default ${DEFAULT-VALUE}).")
    int w;

    @Option(names = "--k", paramLabel = "K", defaultValue = "15", description = "Group size K of the index cascade, 2^n-1 >= 3 (default ${DEFAULT-VALUE}).")
    long k;

    @Mixin
    GrammarOption values;

    @Parameters(index = "0", paramLabel = "IN.jsonl", description = "The records.")
    Path in;

    @Parameters(index = "1", paramLabel = "OUT.kv", description = "The segment file to write (replaced if it exists).")
    Path out;

    /** A parsed record with the line it came from. */
    private record Entry(byte[] key, byte[] value, long line) {
    }

    @Override
    public Integer call() throws IOException {
        Policy policy = policy(spec, format, w, k, values.grammar());
        OutputFile.checkInput("IN.jsonl", in);
        OutputFile.check("OUT.kv", out);
        List<Entry> entries = readLines(policy.grammar());
        entries.sort((a, b) -> Arrays.compareUnsigned(a.key, b.key));
        for (int i = 1; i < entries.size(); i++) {
            if (Arrays.equals(entries.get(i - 1).key, entries.get(i).key)) {
                Entry a = entries.get(i - 1);
                Entry b = entries.get(i);
                throw new CliException(in + ":" + Math.max(a.line, b.line) + ": duplicate key 0x" + ByteText.hex(b.key)
                        + " (also at line " + Math.min(a.line, b.line) + ")");
            }
        }
        SegmentEngine engine = SegmentEngine.load();
        long tombstones = 0;
        SegmentInfo info;
        try (ExitCleanup cleanup = ExitCleanup.temporariesBeside(out);
             SegmentWriter writer = engine.newWriter(out, policy, CommonWidthRule.policy())) {
            for (Entry e : entries) {
                if (e.value == null) {
                    writer.delete(e.key);
                    tombstones++;
                } else {
                    writer.put(e.key, e.value);
                }
            }
            info = writer.finish();
        }
        IndexChain.build(engine, engine.describe(out), policy);
        long chain = Sizes.chainBytes(IndexChain.dirFor(out), info.fileBytes());
        PrintWriter o = spec.commandLine().getOut();
        o.printf("wrote %s: %d records (%d %s), %d bytes, %s; index chain %s (%d bytes)%n", out, info.recordCount(),
                tombstones, tombstones == 1 ? "tombstone" : "tombstones", info.fileBytes(), policy.format(), IndexChain.dirFor(out), chain);
        return 0;
    }

    private List<Entry> readLines(ValueGrammar grammar) throws IOException {
        List<Entry> entries = new ArrayList<>();
        // One char per byte: a record is ASCII, so a byte that is not (or is not UTF-8) fails the
        // record's syntax at its own column instead of failing the decoding of the whole file.
        try (BufferedReader r = Files.newBufferedReader(in, StandardCharsets.ISO_8859_1)) {
            String line;
            long number = 0;
            while ((line = r.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                JsonRecords.Line rec;
                try {
                    rec = JsonRecords.parse(line);
                } catch (JsonRecords.SyntaxException e) {
                    throw new CliException(in + ":" + number + ":" + e.column + ": " + e.getMessage());
                }
                if (rec.value() == null && grammar == ValueGrammar.RAW) {
                    throw new CliException(in + ":" + number + ": a tombstone (\"value\": null) under --values raw, which has none");
                }
                entries.add(new Entry(rec.key(), rec.value(), number));
            }
        }
        return entries;
    }

    /** The policy of a format with W, K and a grammar; a value no policy accepts is a usage error. */
    static Policy policy(CommandLine.Model.CommandSpec spec, Format format, int w, long k, ValueGrammar grammar) {
        Policy base = format == Format.kv03 ? Policy.stringPolicy() : Policy.defaultBytes();
        try {
            return base.withBlockWidth(w).withGroupSize(k).withGrammar(grammar);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
