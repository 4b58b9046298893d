package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** Seeded random operations against the model, with snapshots, iterators, flushes, compactions and reopens. */
class StoreModelTest {

    @TempDir
    Path dir;

    @Test
    void randomOperationsMatchTheModel() throws Exception {
        long seed = Seeds.seed();
        Seeds.run("StoreModelTest", seed, () -> {
            ModelDriver d = new ModelDriver(seed, dir.resolve("db"), DBOptions::new, 120);
            try {
                for (int step = 0; step < 6000; step++) {
                    int r = d.rnd.nextInt(100);
                    if (r < 60) {
                        d.randomWrite();
                    } else if (r < 72) {
                        d.checkGets(4);
                    } else if (r < 84) {
                        d.checkIterator();
                    } else if (r < 89) {
                        if (d.liveSnapshots() < 6) {
                            d.takeSnapshot();
                        }
                    } else if (r < 93) {
                        d.releaseRandomSnapshot();
                    } else if (r < 95) {
                        d.db.flush();
                    } else if (r < 97) {
                        d.db.compactRange();
                    } else if (r < 98) {
                        d.reopen();
                    }
                }
                d.checkGets(200);
                for (int i = 0; i < 20; i++) {
                    d.checkIterator();
                }
            } finally {
                d.close();
            }
        });
    }
}
