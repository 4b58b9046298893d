package dev.everett.segment.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.segment.encoded.EncodedOutput;
import dev.everett.segment.encoded.EncodedRecords;
import dev.everett.segment.fc.KeySamples;
import dev.everett.segment.natives.NativeReader;
import dev.everett.segment.natives.NativeWriter;
import dev.everett.segment.testing.Seeds;
import dev.everett.segment.testing.SegmentFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The keys a native's writer samples ({@link KeySamples}: records 0, K, 2K, …) give the routing
 * catalog over that native's terminal catalog the very index bytes a walk of the native gives,
 * in every unit family, written from host keys ({@code put}) and from encoded records (the
 * merger's {@code appendEncoded}), seeded.
 */
@ExtendWith(Seeds.class)
class WriterSamplesTest {
    private static final List<Policy> POLICIES = List.of(
            Policy.defaultBytes(),
            Policy.defaultBytes().withGroupSize(3).withBlockWidth(4),
            Policy.defaultBytes().withGroupSize(7).withBlockWidth(1),
            Policy.stringPolicy(),
            Policy.stringPolicy().withGroupSize(3).withBlockWidth(5),
            Policy.stringPolicy().withFormat(SegmentFormat.KV02),
            Policy.stringPolicy().withFormat(SegmentFormat.KV02).withGroupSize(7).withBlockWidth(2));

    @Test
    void samplesGiveTheIndexAWalkGives(Random rnd, @TempDir Path dir) throws IOException {
        int trial = 0;
        for (Policy policy : POLICIES) {
            for (int t = 0; t < 12; t++, trial++) {
                byte[][] keys = keys(rnd, t == 0 ? (int) policy.groupSize() + 1 : rnd.nextInt(600));
                Path a = dir.resolve("a" + trial + ".kv");
                try (NativeWriter w = new NativeWriter(a, policy, CommonWidthRule.policy())) {
                    for (byte[] k : keys) {
                        if (policy.allowsTombstones() && rnd.nextInt(5) == 0) {
                            w.delete(k);
                        } else {
                            w.put(k, value(rnd));
                        }
                    }
                    w.finish();
                }
                KeySamples fromPut = KeySamples.take(a);
                // The same records again, through the merger's path: each record's framing as it is.
                Path b = dir.resolve("b" + trial + ".kv");
                try (NativeReader in = SegmentFixtures.open(a, policy);
                     EncodedOutput out = EncodedOutput.create(b, policy, CommonWidthRule.policy())) {
                    EncodedRecords r = EncodedRecords.of(in);
                    while (r.next()) {
                        out.append(r.retained(), r.source(), r.literalAt(), r.literalLength(), r.source(), r.valueAt(), r.valueLength());
                    }
                    out.finish();
                }
                KeySamples fromEncoded = KeySamples.take(b);
                assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), policy + ": the encoded copy differs");
                if (keys.length <= policy.groupSize()) {
                    assertNull(fromPut, "no routing catalog, no samples kept");
                    assertNull(fromEncoded);
                    continue;
                }
                assertNotNull(fromPut, policy + " trial " + trial);
                assertNotNull(fromEncoded, policy + " trial " + trial);
                assertNull(KeySamples.take(a), "samples are handed out once");
                compare(dir, policy, a, fromPut, "put " + trial);
                compare(dir, policy, b, fromEncoded, "appendEncoded " + trial);
            }
        }
    }

    /** Builds the routing index over {@code file}'s terminal catalog with and without the samples: same bytes. */
    private static void compare(Path dir, Policy policy, Path file, KeySamples samples, String what) throws IOException {
        Path empty = dir.resolve("empty-" + what.replace(' ', '-') + ".kv");
        try (NativeWriter w = new NativeWriter(empty, policy, CommonWidthRule.policy())) {
            w.finish();
        }
        ObjectId nativeId = ObjectId.random();
        ObjectId bottomId = ObjectId.random();
        ObjectId emptyId = ObjectId.random();
        Path bottomPath = dir.resolve("bottom-" + what.replace(' ', '-') + ".index");
        try (NativeReader n = SegmentFixtures.open(file, policy); NativeReader e = SegmentFixtures.open(empty, policy)) {
            new IndexBuilder(policy).build(bottomPath, nativeId, n, null, null, null);
            try (IndexReader bottomIndex = IndexReader.open(bottomPath, policy)) {
                Catalog bottom = new Catalog(nativeId, n, bottomId, bottomIndex, null, null, null);
                Path walked = dir.resolve("walked.index");
                Path sampled = dir.resolve("sampled.index");
                new IndexBuilder(policy).build(walked, emptyId, e, bottom, null, null);
                new IndexBuilder(policy).build(sampled, emptyId, e, bottom, samples, null, null);
                byte[] expected = Files.readAllBytes(walked);
                byte[] actual = Files.readAllBytes(sampled);
                assertEquals(-1, Arrays.mismatch(expected, actual), policy + ", " + what + ": index bytes differ");
                Files.delete(walked);
                Files.delete(sampled);
                // Samples that do not describe the target are refused, not used.
                assertThrows(IllegalArgumentException.class,
                        () -> new IndexBuilder(policy).build(dir.resolve("refused.index"), emptyId, e, null, samples, null, null));
            }
        }
    }

    /** Sorted distinct keys over a small alphabet (long shared prefixes), the empty key now and then. */
    private static byte[][] keys(Random rnd, int n) {
        TreeSet<byte[]> set = new TreeSet<>(Arrays::compareUnsigned);
        int maxLength = 1 + rnd.nextInt(rnd.nextBoolean() ? 6 : 40);
        while (set.size() < n) {
            byte[] k = new byte[rnd.nextInt(maxLength + 1)];
            for (int i = 0; i < k.length; i++) {
                k[i] = (byte) (rnd.nextInt(4) == 0 ? rnd.nextInt(256) : 'a' + rnd.nextInt(3));
            }
            set.add(k);
            if (set.size() < n && maxLength < 3 && set.size() >= Math.pow(3, maxLength)) {
                maxLength++;
            }
        }
        return set.toArray(new byte[0][]);
    }

    private static byte[] value(Random rnd) {
        byte[] v = new byte[rnd.nextInt(12)];
        rnd.nextBytes(v);
        return v;
    }
}
