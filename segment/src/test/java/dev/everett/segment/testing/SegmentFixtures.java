package dev.everett.segment.testing;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentInfo;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.segment.natives.NativeReader;
import dev.everett.segment.natives.NativeWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes and reads whole segments for tests. */
public final class SegmentFixtures {
    private SegmentFixtures() {
    }

    public static SegmentInfo write(Path file, Policy policy, CommonWidthRule rule, List<Rec> records) throws IOException {
        try (NativeWriter w = new NativeWriter(file, policy, rule)) {
            putAll(w, records);
            return w.finish();
        }
    }

    /** Writes each record through {@code w}: a put, or a delete for a tombstone. */
    public static void putAll(SegmentWriter w, List<Rec> records) throws IOException {
        for (Rec r : records) {
            if (r.tombstone()) {
                w.delete(r.key());
            } else {
                w.put(r.key(), r.value());
            }
        }
    }

    public static SegmentInfo write(Path file, Policy policy, List<Rec> records) throws IOException {
        return write(file, policy, CommonWidthRule.policy(), records);
    }

    public static NativeReader open(Path file, Policy policy) throws IOException {
        return NativeReader.open(file, policy, OpenMode.TYPED);
    }

    /**
     * A reader of {@code file} with its own body CRC check off (as {@code verify_checksums =
     * false}): only a walk that checks as it reads (a merge's {@code checkInputsAsRead}) can then
     * refuse a damaged body.
     */
    public static SegmentReader openUnchecked(Path file, Policy policy) throws IOException {
        return NativeReader.open(file, policy, OpenMode.TYPED, false);
    }

    /** Every record, in order, through a fresh cursor. */
    public static List<Rec> walk(SegmentReader reader) {
        List<Rec> out = new ArrayList<>();
        try (SegmentCursor c = reader.cursor()) {
            while (c.next()) {
                out.add(new Rec(c.keyBytes(), c.valueBytes()));
            }
        }
        return out;
    }
}
