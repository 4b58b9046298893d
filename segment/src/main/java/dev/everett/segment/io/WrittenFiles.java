package dev.everett.segment.io;

import dev.everett.segment.fc.KeySamples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The native files this process sealed itself, whose body CRC32C the writer computed while
 * streaming the very bytes it wrote. An object store asks here before it spends a CRC pass on a
 * native it handed out for writing: a file that is still the one sealed (same file key, size
 * and modification time) counts as checked. Any other process's file, a copy, a file rewritten
 * or replaced since, or one this bounded memory has forgotten, is checked as usual.
 */
public final class WrittenFiles {
    /** How many sealed files are remembered (the oldest are forgotten first); about 200 bytes each. */
    static final int CAPACITY = 16_384;

    private record Sealed(Object fileKey, long size, FileTime modified) {
    }

    private static final Map<Path, Sealed> SEALED = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, Sealed> eldest) {
            return size() > CAPACITY;
        }
    };

    /** Bytes of key samples kept at most (the oldest are forgotten first). */
    static final long SAMPLE_BYTES = 32L << 20;

    /** A sealed native's key samples, until the index build above it takes them. */
    private record Sampled(Sealed sealed, KeySamples samples) {
    }

    /** Guarded by {@link #SEALED}. */
    private static final LinkedHashMap<Path, Sampled> SAMPLES = new LinkedHashMap<>();
    private static long sampleBytes;

    private WrittenFiles() {
    }

    /**
     * Remembers {@code file} as just sealed by this process, with the keys of its records
     * 0, K, 2K, … if its writer kept them all ({@code samples} may be null).
     */
    static void sealed(Path file, KeySamples samples) throws IOException {
        Path p = file.toAbsolutePath().normalize();
        Sealed s = identity(p);
        synchronized (SEALED) {
            SEALED.remove(p);
            dropSamples(p);
            if (s != null) {
                SEALED.put(p, s);
                if (samples != null && samples.complete() && samples.count() > 0 && samples.bytes() <= SAMPLE_BYTES) {
                    SAMPLES.put(p, new Sampled(s, samples));
                    sampleBytes += samples.bytes();
                    while (sampleBytes > SAMPLE_BYTES) {
                        dropSamples(SAMPLES.keySet().iterator().next());
                    }
                }
            }
        }
    }

    /**
     * The key samples its writer kept of {@code file} (see {@link KeySamples}), taken once, or
     * null: none were kept, they were taken or forgotten, or the file is no longer the one
     * sealed (same file key, size and modification time).
     */
    public static KeySamples takeSamples(Path file) throws IOException {
        Path p = file.toAbsolutePath().normalize();
        Sampled taken;
        synchronized (SEALED) {
            taken = SAMPLES.get(p);
            dropSamples(p);
        }
        return taken != null && taken.sealed().equals(identity(p)) ? taken.samples() : null;
    }

    private static void dropSamples(Path p) {
        Sampled gone = SAMPLES.remove(p);
        if (gone != null) {
            sampleBytes -= gone.samples().bytes();
        }
    }

    /**
     * True if {@code file} is, by its file key, size and modification time, the file this process
     * sealed there. Files without a file key (some file systems have none) never count.
     */
    public static boolean stillAsSealed(Path file) throws IOException {
        Path p = file.toAbsolutePath().normalize();
        Sealed remembered;
        synchronized (SEALED) {
            remembered = SEALED.get(p);
        }
        return remembered != null && remembered.equals(identity(p));
    }

    /** Forgets {@code file} (it was deleted). */
    public static void forget(Path file) {
        Path p = file.toAbsolutePath().normalize();
        synchronized (SEALED) {
            SEALED.remove(p);
            dropSamples(p);
        }
    }

    private static Sealed identity(Path p) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
        Object key = a.fileKey();
        return key == null || !a.isRegularFile() ? null : new Sealed(Objects.requireNonNull(key), a.size(), a.lastModifiedTime());
    }
}
