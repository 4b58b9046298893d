package dev.everett.segment.objects;

import static dev.everett.segment.objects.StoreFixture.key;
import static dev.everett.segment.objects.StoreFixture.value;
import static dev.everett.segment.objects.StoreFixture.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.IndexedSegment;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.Policy;
import dev.everett.api.SegmentWriter;
import dev.everett.segment.encoded.EncodedOutput;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Objects are immutable once published: a segment writer, a merge output (which publishes
 * through the same writer) and an index build under an existing identity are refused with
 * {@link FileAlreadyExistsException} naming the path, atomically.
 */
class ImmutableObjectsTest extends StoreTestBase {
    private static final Policy POLICY = Policy.defaultBytes();
    private static final int ROUNDS = 200;

    @Test
    void writingOrIndexingUnderAnExistingIdentityIsRefusedAndLeavesTheObject() throws IOException {
        try (ObjectStore store = store()) {
            ObjectId id = write(store, "k", 50);
            Path kv = store.nativePath(id);
            byte[] before = Files.readAllBytes(kv);
            IndexedSegment seg = store.indexSegment(id);

            FileAlreadyExistsException newSegment = assertThrows(FileAlreadyExistsException.class,
                    () -> store.newSegment(id, CommonWidthRule.policy()));
            assertEquals(kv.toString(), newSegment.getFile());

            // A merge publishes into nativePath through the encoded output's writer.
            try (EncodedOutput merge = EncodedOutput.create(store.nativePath(id), POLICY, CommonWidthRule.policy())) {
                byte[] k = key("z", 1);
                byte[] v = {1, 'x'};
                merge.append(0, java.lang.foreign.MemorySegment.ofArray(k), 0, k.length, java.lang.foreign.MemorySegment.ofArray(v), 0, v.length);
                FileAlreadyExistsException merged = assertThrows(FileAlreadyExistsException.class, merge::finish);
                assertEquals(kv.toAbsolutePath().toString(), merged.getFile());
            }

            OpenObjects objects = new OpenObjects(store.root(), POLICY);
            FileAlreadyExistsException index = assertThrows(FileAlreadyExistsException.class,
                    () -> objects.index(id, null, null, seg.head().indexId()));
            assertTrue(index.getFile().endsWith(seg.head().indexId().hex().substring(4) + ".index"), index.getFile());
            objects.close();

            assertArrayEquals(before, Files.readAllBytes(kv));
            assertArrayEquals(value("k", 9, "v"), seg.get(key("k", 9)).valueBytes());
            assertEquals(List.of(), temporaryFiles(store.root()));
        }
    }

    @Test
    void ofTwoWritersRacingForOneIdentityExactlyOneWins() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (ObjectStore store = store()) {
            for (int round = 0; round < ROUNDS; round++) {
                ObjectId id = ObjectId.random();
                // Both writers start before either publishes, so both pass the early check.
                SegmentWriter[] writers = {store.newSegment(id, CommonWidthRule.policy()), store.newSegment(id, CommonWidthRule.policy())};
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<String>> outcomes = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    SegmentWriter w = writers[t];
                    String tag = "writer" + t;
                    outcomes.add(pool.submit(() -> {
                        try (w) {
                            for (int i = 0; i < 20; i++) {
                                w.put(key("r", i), value("r", i, tag));
                            }
                            start.await();
                            w.finish();
                            return tag;
                        } catch (FileAlreadyExistsException e) {
                            assertEquals(store.nativePath(id).toAbsolutePath().toString(), e.getFile());
                            return "refused";
                        }
                    }));
                }
                List<String> got = new ArrayList<>();
                for (Future<String> f : outcomes) {
                    got.add(f.get());
                }
                assertEquals(1, got.stream().filter("refused"::equals).count(), "round " + round + ": " + got);
                String winner = got.stream().filter(s -> !s.equals("refused")).findFirst().orElseThrow();
                try (IndexedSegment seg = store.indexSegment(id)) {
                    assertArrayEquals(value("r", 5, winner), seg.get(key("r", 5)).valueBytes(), "round " + round);
                }
                assertEquals(List.of(), temporaryFiles(store.root()), "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static List<Path> temporaryFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.getFileName().toString().contains(".tmp-")).toList();
        }
    }
}
