package dev.everett.segment.testing;

import dev.everett.api.Policy;
import dev.everett.api.ValueWidth;
import dev.everett.segment.io.Envelope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;

/** What every fuzz harness does with its raw input before reading it: a scratch place, header fields. */
public final class FuzzInputs {
    private FuzzInputs() {
    }

    /** A directory for one JVM's fuzz files, on a memory file system when there is one; removed, contents and all, at exit. */
    public static Path scratchDirectory(String prefix) {
        try {
            Path shm = Path.of("/dev/shm");
            Path dir = Files.isDirectory(shm) && Files.isWritable(shm)
                    ? Files.createTempDirectory(shm, prefix)
                    : Files.createTempDirectory(prefix);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try (var walk = Files.walk(dir)) {
                    for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(f);
                    }
                } catch (IOException ignored) {
                    // best effort
                }
            }));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The unsigned little-endian {@code n}-byte field of {@code b} at {@code off}. */
    public static long u(byte[] b, int off, int n) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    /**
     * The envelope's W, K and fixed value width, each as the header says when a {@link Policy}
     * can express it, else the fallback's; {@code exact} is false if any of them was not.
     * {@code file} holds at least the 96-byte envelope.
     */
    public record Shape(int blockWidth, long groupSize, ValueWidth width, boolean exact) {
        public static Shape of(byte[] file, Policy fallback) {
            boolean exact = true;
            long w = u(file, 20, 4);
            int blockWidth = fallback.blockWidth();
            if (w >= 1 && w <= Integer.MAX_VALUE) {
                blockWidth = (int) w;
            } else {
                exact = false;
            }
            long k = u(file, 24, 8);
            long groupSize = fallback.groupSize();
            if (k >= 3 && ((k + 1) & k) == 0) {
                groupSize = k;
            } else {
                exact = false;
            }
            ValueWidth width = ValueWidth.variable();
            if ((u(file, 12, 4) & Envelope.FLAG_POLICY_WIDTH) != 0) {
                long units = u(file, 32, 8);
                if (units >= 0) {
                    width = ValueWidth.fixed(units);
                } else {
                    exact = false;
                }
            }
            return new Shape(blockWidth, groupSize, width, exact);
        }
    }
}
