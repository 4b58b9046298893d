package dev.everett.segment.natives;

import dev.everett.api.SegmentDescription;
import dev.everett.api.SegmentDescription.Section;
import dev.everett.api.SegmentFormat;
import dev.everett.api.Unit;
import dev.everett.api.ValueWidth;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.io.MappedFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Describes a native file from its envelope and section directory, for tools that are given a
 * file and no policy: the envelope says the unit, W, K, backspace code and value width, the
 * directory magic says the format. Both are checked as a typed open checks them; the payload is
 * never touched.
 */
public final class SegmentDescriber {
    /** Section names by directory slot: the five of KV02, then KV03's three. */
    private static final String[] SECTION_NAMES = {
        "records", "ef-low", "ef-high", "ef-samples", "ef-sparse", "sort-dictionary", "sort-offsets", "sort-seeds"
    };

    private SegmentDescriber() {
    }

    public static SegmentDescription describe(Path file) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = MappedFile.readOnly(file, arena);
            Envelope env = Envelope.parse(file, s);
            Corruption c = new Corruption(file);
            c.require(env.kind() == Envelope.Kind.NATIVE, 0, "an index object (EVRT.IX) is not a native segment");
            c.require(s.byteSize() >= Envelope.BYTES + 4, s.byteSize(), "body too short to hold a directory magic");
            boolean kv03 = (int) LittleEndian.u32(s, Envelope.BYTES) == Kv03Directory.MAGIC && env.unit() == Unit.BIT;
            NativeDirectory d = kv03 ? Kv03Directory.parse(c, s, env) : Kv02Directory.parse(c, s, env);
            List<Section> sections = new ArrayList<>();
            sections.add(new Section("envelope", 0, Envelope.BYTES));
            sections.add(new Section("directory", Envelope.BYTES, d.bytes()));
            long[] offsets = d.offsets();
            long[] lengths = d.lengths();
            for (int i = 0; i < offsets.length; i++) {
                sections.add(new Section(SECTION_NAMES[i], Envelope.BYTES + offsets[i], lengths[i]));
            }
            ValueWidth width = env.hasPolicyWidth() ? ValueWidth.fixed(env.policyWidth()) : ValueWidth.variable();
            return new SegmentDescription(file, kv03 ? SegmentFormat.KV03 : SegmentFormat.KV02, env.unit(),
                    env.blockWidth(), env.groupSize(), width, env.backspace(), env.commonWidthOrNone(),
                    env.recordCount(), env.extent(), LittleEndian.u32(s, Envelope.HEADER_CRC_OFFSET),
                    Integer.toUnsignedLong(env.bodyCrc()), s.byteSize(), sections);
        }
    }
}
