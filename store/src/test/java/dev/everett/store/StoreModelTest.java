package dev.everett.store;

import dev.everett.api.Policy;
import dev.everett.compaction.Layout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Seeded random operations against the model in both level layouts and both native formats,
 * with small memtables and files so that background flushes and compactions run throughout,
 * interleaved with snapshots, iterators, explicit flushes, full compactions and reopens.
 */
class StoreModelTest {

    @TempDir
    Path dir;

    static Stream<Arguments> layoutsAndFormats() {
        return Stream.of(
                Arguments.of(Layout.PARTITIONED, "KV02"),
                Arguments.of(Layout.WHOLE_RUN, "KV02"),
                Arguments.of(Layout.PARTITIONED, "KV03"),
                Arguments.of(Layout.WHOLE_RUN, "KV03"));
    }

    static DBOptions smallStore(Layout layout, String format) {
        return new DBOptions()
                .setPolicy(format.equals("KV03") ? Policy.stringPolicy() : Policy.defaultBytes())
                .setLevelLayout(layout)
                .setWriteBufferSize(40 << 10)
                .setTargetFileSizeBase(8 << 10)
                .setMaxBytesForLevelBase(16 << 10)
                .setMaxBytesForLevelMultiplier(4)
                .setLevel0FileNumCompactionTrigger(2)
                .setNumLevels(4);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("layoutsAndFormats")
    void randomOperationsMatchTheModel(Layout layout, String format) throws Exception {
        long seed = Seeds.seed();
        Seeds.run("StoreModelTest " + layout + " " + format, seed, () -> {
            ModelDriver d = new ModelDriver(seed, dir.resolve("db"), () -> smallStore(layout, format), 150);
            try {
                for (int step = 0; step < 1200; step++) {
                    int r = d.rnd.nextInt(1000);
                    if (r < 600) {
                        d.randomWrite();
                    } else if (r < 730) {
                        d.checkGets(4);
                    } else if (r < 860) {
                        d.checkIterator();
                    } else if (r < 920) {
                        if (d.liveSnapshots() < 6) {
                            d.takeSnapshot();
                        }
                    } else if (r < 980) {
                        d.releaseRandomSnapshot();
                    } else if (r < 988) {
                        d.db.flush();
                    } else if (r < 994) {
                        d.db.compactRange();
                    } else {
                        d.reopen();
                    }
                }
                d.checkGets(300);
                for (int i = 0; i < 30; i++) {
                    d.checkIterator();
                }
                d.db.compactRange();
                d.checkGets(300);
                d.reopen();
                d.checkGets(300);
                if (System.getProperty("everett.store.stats") != null) {
                    System.out.println(d.db.getProperty("everett.stats"));
                }
            } finally {
                d.close();
            }
            RecoveryTest.assertNoOrphanSegments(dir.resolve("db"), smallStore(layout, format));
        });
    }
}
