package dev.everett.segment.testing;

import dev.everett.api.Policy;
import dev.everett.api.ValueWidth;
import dev.everett.segment.io.Envelope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

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

    /**
     * A checksummed text file from a fuzz input whose first byte chooses: even, the rest is the
     * lines before the checksum, and a correct last line ({@code prefix}, the CRC32C of those
     * bytes as 8 lowercase hex digits, a line feed) is appended, so that mutations reach the
     * fields; odd, the rest is the file as it is. {@code data} is not empty.
     */
    public static byte[] textWithCrcLine(byte[] data, String prefix) {
        byte[] rest = Arrays.copyOfRange(data, 1, data.length);
        if ((data[0] & 1) != 0) {
            return rest;
        }
        CRC32C crc = new CRC32C();
        crc.update(rest);
        byte[] line = String.format("%s%08x\n", prefix, crc.getValue()).getBytes(StandardCharsets.US_ASCII);
        byte[] out = Arrays.copyOf(rest, rest.length + line.length);
        System.arraycopy(line, 0, out, rest.length, line.length);
        return out;
    }

    /** A fuzz input of {@code rest} behind the selector byte {@code selector} (its first byte). */
    public static byte[] withSelector(int selector, byte[] rest) {
        byte[] out = new byte[rest.length + 1];
        out[0] = (byte) selector;
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }

    /**
     * The seeds every checksummed text file shares, as inputs of {@link #textWithCrcLine}:
     * {@code valid-<name>} (the file as it is), {@code valid-<name>-body} (its lines before the
     * checksum line), and damaged ones: a bit flipped at {@code flipAt} ({@code mut-crc-mismatch}),
     * the last byte cut, a byte added, nothing, {@code \r\n} line ends, and for each
     * {@code {seed name, text, replacement}} of {@code damage} the body with that text replaced
     * (its checksum appended, so the damage reaches the fields).
     */
    public static Map<String, byte[]> checksummedTextSeeds(String name, byte[] file, int flipAt, String[][] damage) {
        Map<String, byte[]> s = new LinkedHashMap<>();
        String text = new String(file, StandardCharsets.ISO_8859_1);
        String body = text.substring(0, text.lastIndexOf('\n', text.length() - 2) + 1);
        s.put("valid-" + name, withSelector(1, file));
        s.put("valid-" + name + "-body", withSelector(0, body.getBytes(StandardCharsets.ISO_8859_1)));
        byte[] flipped = file.clone();
        flipped[flipAt] ^= 1;
        s.put("mut-crc-mismatch", withSelector(1, flipped));
        s.put("mut-truncated", withSelector(1, Arrays.copyOf(file, file.length - 1)));
        s.put("mut-trailing", withSelector(1, Arrays.copyOf(file, file.length + 1)));
        s.put("mut-empty", withSelector(1, new byte[0]));
        s.put("mut-crlf", withSelector(1, text.replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1)));
        for (String[] d : damage) {
            s.put(d[0], withSelector(0, body.replace(d[1], d[2]).getBytes(StandardCharsets.ISO_8859_1)));
        }
        return s;
    }
}
