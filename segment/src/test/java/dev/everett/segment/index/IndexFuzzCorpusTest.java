package dev.everett.segment.index;


import dev.everett.segment.io.Envelope;
import dev.everett.segment.io.LittleEndian;
import dev.everett.segment.natives.CorruptionTest;
import dev.everett.segment.testing.FuzzCorpusHarness;
import dev.everett.segment.testing.FuzzInputs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The seed corpus of {@link IndexFuzzTest}: every golden index file as it is ({@code valid-*}),
 * and targeted damage to a few of them ({@code mut-*}): each directory field, the identities,
 * section descriptors, the envelope's policy and size fields, and bytes of every kind of
 * section (borrowed keys, Elias–Fano words, rank classes and checkpoints, false-borrow bits,
 * cut-LCP words). Every seed is one selector byte (the target's position in
 * {@link IndexFuzzTest#TARGETS}) followed by the file, with both checksums recomputed.
 *
 * <p>The files are committed under
 * {@code src/test/resources/dev/everett/segment/index/IndexFuzzTestInputs/crcRepaired/}; crash inputs
 * found by fuzzing sit beside them as {@code crash-*} and are never touched here. Regenerate
 * (after the golden chains change) with
 * <pre>
 * ./.ci/with-jdk25 ./mvnw -pl segment -am test -Dtest=IndexFuzzCorpusTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Deverett.fuzz.writeCorpus=true
 * </pre>
 * Generation is deterministic; {@link #committedCorpusIsUpToDate} checks that in every build.
 */
class IndexFuzzCorpusTest extends FuzzCorpusHarness {
    static final String RESOURCE_DIR = "src/test/resources/dev/everett/segment/index/IndexFuzzTestInputs";

    /** The golden index files that get targeted damage besides their valid seed. */
    private static final List<String> MUTATED = List.of(
            "worked-example-T.index", "worked-example-H.index", "routing-R1.index", "empty-R1.index",
            "main-secondary-A.index", "k7-partial-A.index");

    @Override
    protected String resourceDir() {
        return RESOURCE_DIR;
    }

    /** One target, {@code crcRepaired}: every seed is a selector byte and a checksum-valid file. */
    @Override
    protected Map<String, Map<String, byte[]>> corpus(Path scratch) throws IOException {
        return Map.of("crcRepaired", corpus());
    }

    // ---------------------------------------------------------------------------------------

    /** File name → seed bytes (selector byte, then the index file with fresh checksums). */
    static Map<String, byte[]> corpus() throws IOException {
        Map<String, IndexFuzzTest.Target> targets = IndexFuzzTest.targets();
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (int i = 0; i < IndexFuzzTest.TARGETS.size(); i++) {
            String name = IndexFuzzTest.TARGETS.get(i);
            out.put("valid-" + stem(name), FuzzInputs.withSelector(i, targets.get(name).original()));
        }
        for (String name : MUTATED) {
            int selector = IndexFuzzTest.TARGETS.indexOf(name);
            IndexFuzzTest.Target t = targets.get(name);
            IndexDirectory d;
            try (IndexReader r = IndexReader.open(GoldenIndexFiles.dir().resolve(name), t.chain().policy())) {
                d = r.directory();
            }
            for (Map.Entry<String, byte[]> m : mutants(t.original(), d).entrySet()) {
                out.put("mut-" + stem(name) + "-" + m.getKey(), FuzzInputs.withSelector(selector, m.getValue()));
            }
        }
        return out;
    }

    private static String stem(String file) {
        return file.substring(0, file.length() - ".index".length());
    }

    private static final int BODY = Envelope.BYTES;

    /** Targeted damage to one index file, each with both checksums recomputed. */
    static Map<String, byte[]> mutants(byte[] original, IndexDirectory d) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        // Directory fields.
        String[] u64 = {"v", "count0", "count1", "extent0", "extent1", "terminal0", "terminal1", "universe0", "universe1"};
        for (int i = 0; i < u64.length; i++) {
            int at = BODY + 8 + 8 * i;
            add(out, original, "dir-" + u64[i] + "-plus1", b -> LittleEndian.putU64(b, at, CorruptionTest.u64(b, at) + 1));
            add(out, original, "dir-" + u64[i] + "-minus1", b -> LittleEndian.putU64(b, at, CorruptionTest.u64(b, at) - 1));
        }
        for (int r = 0; r < 2; r++) {
            int low = BODY + 80 + r;
            int flag = BODY + 82 + r;
            add(out, original, "dir-low" + r + "-plus1", b -> b[low]++);
            add(out, original, "dir-flag" + r + "-toggle", b -> b[flag] ^= 1);
        }
        add(out, original, "dir-reserved84", b -> b[BODY + 84] = 1);
        add(out, original, "dir-reserved159", b -> b[BODY + 159] = 1);
        // Identities: another object of the chain, itself (a cycle), zero, one that does not exist.
        add(out, original, "id-native-from-main", b -> System.arraycopy(original, BODY + 104, b, BODY + 88, 16));
        add(out, original, "id-main-native-from-own", b -> System.arraycopy(original, BODY + 88, b, BODY + 104, 16));
        add(out, original, "id-main-index-zero", b -> Arrays.fill(b, BODY + 120, BODY + 136, (byte) 0));
        add(out, original, "id-main-index-missing", b -> b[BODY + 135] ^= 0x40);
        add(out, original, "id-secondary-from-own", b -> System.arraycopy(original, BODY + 88, b, BODY + 136, 16));
        add(out, original, "id-secondary-from-main", b -> System.arraycopy(original, BODY + 104, b, BODY + 136, 16));
        // Section descriptors.
        for (int s : new int[] {0, 2, 5, 10, 14, 17}) {
            int at = BODY + 160 + 16 * s;
            add(out, original, "desc" + s + "-offset-plus8", b -> LittleEndian.putU64(b, at, CorruptionTest.u64(b, at) + 8));
            add(out, original, "desc" + s + "-length-plus1", b -> LittleEndian.putU64(b, at + 8, CorruptionTest.u64(b, at + 8) + 1));
        }
        // Envelope: policy fields (a valid header naming another policy), record count, sizes.
        add(out, original, "env-w-plus1", b -> b[20]++);
        add(out, original, "env-k-15", b -> LittleEndian.putU64(b, 24, CorruptionTest.u64(b, 24) == 15 ? 7 : 15));
        add(out, original, "env-flags-no-common-width", b -> b[12] &= ~2);
        add(out, original, "env-count-plus1", b -> LittleEndian.putU64(b, 56, CorruptionTest.u64(b, 56) + 1));
        out.put("env-grown-8-zero-bytes", grown(original, 8));
        out.put("truncated-8", CorruptionTest.withCrcs(Arrays.copyOf(original, original.length - 8)));
        // Section bytes, where the section is not empty.
        long[] off = d.offsets();
        long[] len = d.lengths();
        String[] names = {"fc0", "low0", "high0", "samples0", "sparse0", "fc1", "low1", "high1", "samples1", "sparse1",
                "classes0", "checkpoints0", "classes1", "checkpoints1", "flags0", "flags1", "cuts0", "cuts1"};
        for (int s = 0; s < IndexDirectory.SECTIONS; s++) {
            if (len[s] == 0) {
                continue;
            }
            int first = (int) (BODY + off[s]);
            int last = (int) (BODY + off[s] + len[s] - 1);
            add(out, original, names[s] + "-first-xor1", b -> b[first] ^= 1);
            add(out, original, names[s] + "-last-xor80", b -> b[last] ^= (byte) 0x80);
            if (len[s] >= 8 && s >= IndexDirectory.CLASSES) {
                add(out, original, names[s] + "-word-max", b -> LittleEndian.putU64(b, first, -1L));
            }
        }
        // A gap byte between two sections, where there is one.
        for (int s = 1; s < IndexDirectory.SECTIONS; s++) {
            long end = off[s - 1] + len[s - 1];
            if (end < off[s]) {
                int gap = (int) (BODY + end);
                add(out, original, "gap-before-" + names[s], b -> b[gap] = 1);
                break;
            }
        }
        return out;
    }

    private static void add(Map<String, byte[]> out, byte[] original, String name, Consumer<byte[]> change) {
        byte[] b = original.clone();
        change.accept(b);
        if (!Arrays.equals(b, original)) {
            out.put(name, CorruptionTest.withCrcs(b));
        }
    }

    /** Eight more body bytes with the envelope's extent and total size made to agree. */
    private static byte[] grown(byte[] original, int extra) {
        byte[] b = Arrays.copyOf(original, original.length + extra);
        LittleEndian.putU64(b, 48, CorruptionTest.u64(b, 48) + extra);
        LittleEndian.putU64(b, 80, CorruptionTest.u64(b, 80) + extra);
        return CorruptionTest.withCrcs(b);
    }
}
