package dev.everett.cli;

import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentDescription;
import dev.everett.api.Unit;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.stream.Stream;
import picocli.CommandLine.Command;

/** {@code inspect}: what a segment file is made of, as {@code sst_dump --show_properties} shows an SST. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = {"Shows what a segment file is made of.",
            "Its envelope, directory, policy, record and tombstone counts, bytes per section, key range and index "
                + "chain (like sst_dump --show_properties)."})
final class InspectCommand extends FileOnlyCommand {

    private static final HexFormat HEX = HexFormat.of();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = out();
        try (SegmentFile f = openTarget()) {
            SegmentDescription d = f.description;
            long tombstones = 0;
            long keyBytes = 0;
            long valueBytes = 0;
            byte[] first = null;
            byte[] last = null;
            try (SegmentCursor c = f.reader.cursor()) {
                while (c.next()) {
                    if (first == null) {
                        first = c.keyBytes();
                    }
                    if (c.ordinal() == d.recordCount() - 1) {
                        last = c.keyBytes();
                    }
                    keyBytes += c.keyLength();
                    if (c.isTombstone()) {
                        tombstones++;
                    } else {
                        valueBytes += c.valueLength();
                    }
                }
            }
            row(out, "file", d.path() + " (" + d.fileBytes() + " bytes)");
            row(out, "format", d.format() + (d.format().name().equals("KV03") ? " (sort-owned bit profile)" : " (front-coded, " + d.unit().name().toLowerCase() + " units)"));
            row(out, "envelope", "EVRT.KV version 1, 96 bytes, header CRC32C " + HEX.toHexDigits((int) d.headerCrc())
                    + ", body CRC32C " + HEX.toHexDigits((int) d.bodyCrc()) + ", extent " + d.extent() + (d.unit() == Unit.BIT ? " bits" : " bytes"));
            row(out, "policy", "unit " + d.unit().name().toLowerCase() + ", W " + d.blockWidth() + ", K " + d.groupSize()
                    + ", value width " + d.valueWidth() + ", backspace " + (d.unit() == Unit.BYTE ? "varint" : d.backspace()));
            row(out, "common width", d.commonValueWidth() < 0 ? "none" : d.commonValueWidth() + (d.unit() == Unit.BIT ? " bits" : " bytes"));
            row(out, "value grammar", f.policy.grammar().name().toLowerCase() + " (not recorded in the file; --values)");
            row(out, "records", d.recordCount() + " (" + (d.recordCount() - tombstones) + " values, " + tombstones + (tombstones == 1 ? " tombstone)" : " tombstones)"));
            row(out, "blocks", Long.toString(d.blockWidth() == 0 ? 0 : (d.recordCount() + d.blockWidth() - 1) / d.blockWidth()));
            row(out, "raw key bytes", Long.toString(keyBytes));
            row(out, "raw value bytes", Long.toString(valueBytes));
            row(out, "key range", first == null ? "(empty)" : ByteText.render(first, ByteText.Style.TEXT) + " .. " + ByteText.render(last, ByteText.Style.TEXT));
            out.println("sections:");
            out.printf("  %-16s %12s %12s%n", "name", "offset", "bytes");
            for (SegmentDescription.Section s : d.sections()) {
                out.printf("  %-16s %12d %12d%n", s.name(), s.offset(), s.bytes());
            }
            Path dir = IndexChain.dirFor(d.path());
            if (Files.isDirectory(dir)) {
                IndexChain.Head head = IndexChain.read(d);
                long objects;
                try (Stream<Path> s = Files.walk(dir)) {
                    objects = s.filter(p -> p.toString().endsWith(".kv") || p.toString().endsWith(".index")).count();
                }
                row(out, "index chain", dir + " (head " + head.head().indexId() + ", " + objects + " objects, "
                        + Sizes.chainBytes(dir, d.fileBytes()) + " bytes beside the native)");
            } else {
                row(out, "index chain", "none (get and dump walk the file; build one with: everett index " + d.path() + ")");
            }
        }
        return 0;
    }

    private static void row(PrintWriter out, String name, String value) {
        out.printf("%-16s %s%n", name, value);
    }
}
