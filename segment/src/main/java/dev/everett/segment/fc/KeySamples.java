package dev.everett.segment.fc;

import dev.everett.segment.io.WrittenFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The keys of records 0, K, 2K, … of a native, kept by its writer as it writes them, in the
 * form a walk of the native gives them ({@link KeyWalker}: bytes, or logical bit strings, sort
 * code first, unused tail bits zero). They are exactly what the routing catalog stacked on the
 * native's own (terminal) catalog samples, so the index builder can take them instead of walking
 * every record of the native just written.
 *
 * <p>Bounded: a writer stops sampling (and drops what it had) once the samples pass
 * {@link #WRITER_LIMIT} bytes, and this process remembers samples of at most {@link #REMEMBERED_LIMIT}
 * bytes in all, forgetting the oldest first. Samples are handed out once and only for a file
 * that is still the one this process sealed ({@link WrittenFiles#stillAsSealed}); anything else
 * (another process's file, a copy, a rewritten file, forgotten samples) is walked as before.
 */
public final class KeySamples {
    /** Most sample bytes one writer keeps (a native of about K times this much key data). */
    static final long WRITER_LIMIT = 32L << 20;
    /** Most sample bytes this process keeps for natives not indexed yet. */
    static final long REMEMBERED_LIMIT = 32L << 20;

    private final StreamUnits units;
    private byte[] bytes = new byte[1024];
    private int used;
    /** Per sample: its first byte in {@link #bytes} and its length in units. */
    private long[] offsets = new long[64];
    private long[] lengths = new long[64];
    private int count;
    private boolean abandoned;

    KeySamples(StreamUnits units) {
        this.units = units;
    }

    /** Adds the key in the first {@code keyUnits} units of {@code key} (whatever lies after them is ignored). */
    void add(byte[] key, long keyUnits) {
        if (abandoned) {
            return;
        }
        int n = units.arrayBytes(keyUnits);
        if ((long) used + n > WRITER_LIMIT) {
            abandon();
            return;
        }
        if (count == offsets.length) {
            offsets = Arrays.copyOf(offsets, 2 * count);
            lengths = Arrays.copyOf(lengths, 2 * count);
        }
        if (used + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(used + n, 2 * bytes.length));
        }
        System.arraycopy(key, 0, bytes, used, n);
        if (units.partialBytes() && n > 0) {
            dev.everett.segment.bits.BitStrings.clearTail(bytes, 8L * used + units.bits(keyUnits));
        }
        offsets[count] = used;
        lengths[count] = keyUnits;
        used += n;
        count++;
    }

    /** Drops every sample: there will be none for this native. */
    void abandon() {
        abandoned = true;
        bytes = null;
        offsets = null;
        lengths = null;
        count = 0;
        used = 0;
    }

    boolean abandoned() {
        return abandoned;
    }

    /** How many keys were sampled. */
    public long count() {
        return count;
    }

    /** The sampled keys in order, each in a buffer of its own length (the source's buffer is reused). */
    public KeySource keys() {
        return new KeySource() {
            private int at = -1;
            private byte[] key = new byte[64];

            @Override
            public boolean next() {
                if (at + 1 >= count) {
                    at = count;
                    return false;
                }
                at++;
                int n = units.arrayBytes(lengths[at]);
                if (key.length < n) {
                    key = new byte[Math.max(n, 2 * key.length)];
                }
                System.arraycopy(bytes, (int) offsets[at], key, 0, n);
                return true;
            }

            @Override
            public byte[] keyBuffer() {
                return key;
            }

            @Override
            public long keyUnits() {
                return lengths[at];
            }
        };
    }

    private long footprint() {
        return used + 16L * count;
    }

    // The samples of sealed natives this process has not indexed yet.

    private static final Map<Path, KeySamples> REMEMBERED = new LinkedHashMap<>();
    private static long rememberedBytes;

    /** Remembers the samples of {@code file}, which this process has just sealed. */
    public static void remember(Path file, KeySamples samples) {
        Path p = file.toAbsolutePath().normalize();
        synchronized (REMEMBERED) {
            KeySamples old = REMEMBERED.remove(p);
            if (old != null) {
                rememberedBytes -= old.footprint();
            }
            if (samples.abandoned || samples.footprint() > REMEMBERED_LIMIT) {
                return;
            }
            REMEMBERED.put(p, samples);
            rememberedBytes += samples.footprint();
            Iterator<KeySamples> eldest = REMEMBERED.values().iterator();
            while (rememberedBytes > REMEMBERED_LIMIT) {
                rememberedBytes -= eldest.next().footprint();
                eldest.remove();
            }
        }
    }

    /**
     * Hands out (once) the samples this process kept for {@code file}, or null if it kept none
     * or the file is no longer the one it sealed.
     */
    public static KeySamples take(Path file) throws IOException {
        Path p = file.toAbsolutePath().normalize();
        KeySamples s;
        synchronized (REMEMBERED) {
            s = REMEMBERED.remove(p);
            if (s != null) {
                rememberedBytes -= s.footprint();
            }
        }
        return s != null && WrittenFiles.stillAsSealed(p) ? s : null;
    }

    /** Forgets the samples of {@code file} (it was deleted). */
    public static void forget(Path file) {
        Path p = file.toAbsolutePath().normalize();
        synchronized (REMEMBERED) {
            KeySamples s = REMEMBERED.remove(p);
            if (s != null) {
                rememberedBytes -= s.footprint();
            }
        }
    }
}
