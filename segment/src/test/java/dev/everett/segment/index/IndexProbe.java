package dev.everett.segment.index;

import dev.everett.api.CorruptSegmentException;
import dev.everett.api.FilterPolicy;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.PolicyMismatchException;
import dev.everett.segment.cascade.Cascade;
import dev.everett.segment.objects.OpenObjects;
import dev.everett.segment.testing.Rec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Runs one golden chain with one of its objects replaced by other bytes, the way a host would:
 * {@link OpenObjects#openChain} from the head pair (which opens and binds every object), a
 * {@link Cascade} over it, {@link Cascade#get} for every query (hits and misses, answers
 * compared with the chain's model), then {@link Catalog#verify()} of the whole chain. Every stage
 * runs even after an earlier one refused, so each gets to see the damage.
 *
 * <p>The chain is installed once into a store directory; each probe overwrites one object and
 * puts the original back afterwards.
 */
final class IndexProbe {
    private static final HexFormat HEX = HexFormat.of();

    /** Where a probe first refused the file ({@code NONE}: verify passed). */
    enum Stage { OPEN, QUERY, VERIFY, NONE }

    /**
     * What one probe saw.
     *
     * @param refusedAt    the first stage that threw {@link CorruptSegmentException}, or NONE
     * @param mismatch     open threw {@link PolicyMismatchException}
     * @param wrong        queries that answered (without throwing) differently from the model
     * @param unexpected   any other exception, or null
     * @param where        the stage of the unexpected exception
     * @param queryRefusals queries that threw {@link CorruptSegmentException}
     */
    record Result(Stage refusedAt, boolean mismatch, List<String> wrong, Throwable unexpected, String where, int queryRefusals) {
        boolean verified() {
            return refusedAt == Stage.NONE && !mismatch && unexpected == null;
        }
    }

    final GoldenIndexFiles.Chain chain;
    final Path root;
    private final Path scratch;
    private final List<byte[]> queries;
    private final List<Rec> expected;
    private final boolean verifyChecksums;

    /**
     * Installs {@code chain} in a store under {@code dir} (best on a memory file system: verify()
     * rebuilds its indexes in {@code dir/scratch}); asks at most {@code maxQueries} queries, an
     * even sample of the chain's.
     */
    IndexProbe(GoldenIndexFiles.Chain chain, Path dir, int maxQueries) throws IOException {
        this(chain, dir, maxQueries, true);
    }

    /** As above; with {@code verifyChecksums} false the store reads natives without checking their body CRC. */
    IndexProbe(GoldenIndexFiles.Chain chain, Path dir, int maxQueries, boolean verifyChecksums) throws IOException {
        this.chain = chain;
        this.verifyChecksums = verifyChecksums;
        this.root = dir.resolve("store");
        this.scratch = Files.createDirectories(dir.resolve("scratch"));
        chain.install(GoldenIndexFiles.dir(), root);
        List<byte[]> all = chain.queries();
        int step = Math.max(1, (all.size() + maxQueries - 1) / maxQueries);
        this.queries = new ArrayList<>();
        this.expected = new ArrayList<>();
        for (int i = 0; i < all.size(); i += step) {
            queries.add(all.get(i));
            expected.add(chain.model(all.get(i)));
        }
    }

    int queryCount() {
        return queries.size();
    }

    /** Replaces {@code object} with {@code bytes}, probes, and restores the original. */
    Result run(GoldenIndexFiles.Obj object, byte[] bytes) throws IOException {
        Path p = object.storePath(root);
        byte[] original = Files.readAllBytes(p);
        Files.write(p, bytes);
        try {
            return probe();
        } finally {
            Files.write(p, original);
        }
    }

    /** True if the installed head index names a native other than the head's that the store holds. */
    private boolean headIndexNamesAnotherNative(OpenObjects store) throws IOException {
        try (IndexReader ix = IndexReader.open(store.indexPath(chain.headIndex()), chain.policy())) {
            ObjectId named = ix.nativeId();
            return !named.equals(chain.headNative()) && Files.isRegularFile(store.nativePath(named));
        }
    }

    /** Probes the chain as installed. */
    Result probe() {
        List<String> wrong = new ArrayList<>();
        String stage = "open";
        try (OpenObjects store = new OpenObjects(root, chain.policy(), FilterPolicy.none(), verifyChecksums)) {
            Cascade cascade;
            try {
                Catalog head = store.openChain(chain.headNative(), chain.headIndex());
                stage = "cascade";
                cascade = new Cascade(head);
            } catch (CorruptSegmentException e) {
                return new Result(Stage.OPEN, false, wrong, null, null, 0);
            } catch (PolicyMismatchException e) {
                return new Result(Stage.OPEN, true, wrong, null, null, 0);
            } catch (IllegalArgumentException e) {
                if (!headIndexNamesAnotherNative(store)) {
                    throw e;
                }
                // A checksum-valid head index that names another native of the store is that
                // native's index: the pair the probe passes is then no catalog of the store, and
                // openChain refuses it as it refuses a caller's wrong pairing.
                return new Result(Stage.OPEN, false, wrong, null, null, 0);
            }
            stage = "query";
            int refusals = 0;
            for (int i = 0; i < queries.size(); i++) {
                byte[] q = queries.get(i);
                Lookup got;
                try {
                    got = cascade.get(q, q.length);
                } catch (CorruptSegmentException e) {
                    refusals++;
                    continue;
                }
                if (!GoldenIndexFiles.agrees(got, expected.get(i))) {
                    wrong.add("get(" + HEX.formatHex(q) + ") = " + GoldenIndexFiles.describe(got) + ", expected " + GoldenIndexFiles.describe(expected.get(i)));
                }
            }
            stage = "verify";
            Stage refused = refusals > 0 ? Stage.QUERY : Stage.NONE;
            try {
                cascade.head().verify(scratch);
            } catch (CorruptSegmentException e) {
                refused = refused == Stage.NONE ? Stage.VERIFY : refused;
                return new Result(refused, false, wrong, null, null, refusals);
            }
            if (refusals > 0) {
                // verify() passed but a query refused: a disagreement worth reporting.
                return new Result(Stage.QUERY, false, wrong, new AssertionError("verify() passed but " + refusals + " queries refused"), "verify", refusals);
            }
            return new Result(Stage.NONE, false, wrong, null, null, 0);
        } catch (RuntimeException | Error | IOException e) {
            return new Result(Stage.NONE, false, wrong, e, stage, 0);
        }
    }
}
