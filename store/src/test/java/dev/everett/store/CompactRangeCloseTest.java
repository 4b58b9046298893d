package dev.everett.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A manual compaction that close interrupts. */
class CompactRangeCloseTest {

    @TempDir
    Path dir;

    /**
     * Close cancels a running {@code compactRange()}; the caller must learn that its compaction
     * did not happen (RocksDB's fails with "shutdown in progress"), not see it return as if the
     * range were compacted. The rate limiter keeps the compaction running until close.
     */
    @Test
    void compactRangeCancelledByCloseFails() throws Exception {
        DBOptions options = new DBOptions().setWriteBufferSize(1 << 16).setDisableAutoCompactions(true)
                .setRateLimiterBytesPerSecond(1 << 10);
        EverettDB db = EverettDB.open(dir.resolve("db"), options);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread compactor;
        try {
            for (int run = 0; run < 2; run++) {
                for (int i = 0; i < 200; i++) {
                    db.put(new byte[] {(byte) i}, new byte[100]);
                }
                db.flush();
            }
            compactor = Thread.ofPlatform().start(() -> {
                try {
                    db.compactRange();
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            Thread.sleep(200); // about 40 KB of input at 1 KiB/s: the compaction runs for half a minute
            assertTrue(compactor.isAlive(), "the compaction ended before close: " + failure.get());
        } finally {
            db.close();
        }
        compactor.join(10_000);
        assertEquals(false, compactor.isAlive(), "compactRange still running after close");
        assertNotNull(failure.get(), "compactRange returned normally although close cancelled it");
        assertInstanceOf(IllegalStateException.class, failure.get());
        assertTrue(failure.get().getMessage().contains("closed"), failure.get().getMessage());
    }
}
