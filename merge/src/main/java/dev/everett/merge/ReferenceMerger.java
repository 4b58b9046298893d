package dev.everett.merge;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.KeyedValueMerger;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.api.TombstonePolicy;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueMerger;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The obviously correct merge, kept as the test oracle for {@link NativeMerger}: read every
 * input into a sorted map, oldest first, folding equal keys through the value merger; drop
 * tombstones if asked; write the result with the ordinary writer. It materialises everything
 * and is meant for tests, not for compaction.
 */
public final class ReferenceMerger {
    /** A tombstone in the map (null values are not allowed in the fold's bookkeeping). */
    private static final byte[] TOMBSTONE = new byte[0];

    private ReferenceMerger() {
    }

    /** The merged records: key → value, with {@code null} for a tombstone. */
    public static TreeMap<byte[], byte[]> merge(List<SegmentReader> runs, ValueMerger values, KeyedValueMerger keyedValues,
                                                TombstonePolicy tombstones) {
        boolean optional = runs.get(0).policy().grammar() == ValueGrammar.OPTIONAL;
        TreeMap<byte[], byte[]> map = new TreeMap<>(Arrays::compareUnsigned);
        for (SegmentReader run : runs) {
            try (SegmentCursor c = run.cursor()) {
                while (c.next()) {
                    byte[] key = c.keyBytes();
                    byte[] value = c.isTombstone() ? TOMBSTONE : c.valueBytes();
                    byte[] old = map.get(key);
                    if (old != null) {
                        MemorySegment o = old == TOMBSTONE ? null : MemorySegment.ofArray(old);
                        MemorySegment n = value == TOMBSTONE ? null : MemorySegment.ofArray(value);
                        MemorySegment merged = keyedValues != null ? keyedValues.merge(MemorySegment.ofArray(key), o, n) : values.merge(o, n);
                        if (merged == null && !optional) {
                            throw new IllegalArgumentException("a value merger returned null under the RAW grammar");
                        }
                        value = merged == null ? TOMBSTONE : merged.toArray(ValueLayout.JAVA_BYTE);
                    }
                    map.put(key, value);
                }
            }
        }
        TreeMap<byte[], byte[]> out = new TreeMap<>(Arrays::compareUnsigned);
        for (Map.Entry<byte[], byte[]> e : map.entrySet()) {
            boolean tombstone = e.getValue() == TOMBSTONE;
            if (tombstone && tombstones == TombstonePolicy.DROP) {
                continue;
            }
            out.put(e.getKey(), tombstone ? null : e.getValue());
        }
        return out;
    }

    /** Writes merged records as a segment with the ordinary writer (canonical front coding). */
    public static SegmentInfo write(TreeMap<byte[], byte[]> records, Path target, SegmentReader like, CommonWidthRule rule) throws IOException {
        try (SegmentWriter w = SegmentEngine.load().newWriter(target, like.policy(), rule)) {
            for (Map.Entry<byte[], byte[]> e : records.entrySet()) {
                if (e.getValue() == null) {
                    w.delete(e.getKey());
                } else {
                    w.put(e.getKey(), e.getValue());
                }
            }
            return w.finish();
        }
    }
}
