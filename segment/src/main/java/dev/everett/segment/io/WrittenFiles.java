package dev.everett.segment.io;

import dev.everett.segment.fc.KeySamples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The native files this process sealed itself, whose body CRC32C the writer computed while
 * streaming the very bytes it wrote. An object store asks here before it spends a CRC pass on a
 * native it handed out for writing: a file that is still the one sealed (same file key, size
 * and modification time) counts as checked. Any other process's file, a copy, a file rewritten
 * or replaced since, or one this bounded memory has forgotten, is checked as usual. The same
 * memory hands what the writer saw of the keys to the builds beside the native: the key samples
 * of the routing catalog above it ({@link #takeSamples}) and, where the store keeps key filters,
 * every key's filter hash ({@link #takeHashes}).
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

    /** Bytes of key hashes kept at most (the oldest are forgotten first). */
    static final long HASH_BYTES = 64L << 20;

    /**
     * What a sealed native's writer saw of its keys, kept until the build beside the native that
     * needs it takes it, within a byte budget (the oldest are forgotten first). Guarded by
     * {@link #SEALED}.
     */
    private static final class Kept<T> {
        private record Entry<T>(Sealed sealed, T value, long bytes) {
        }

        private final LinkedHashMap<Path, Entry<T>> entries = new LinkedHashMap<>();
        private final long budget;
        private long bytes;

        Kept(long budget) {
            this.budget = budget;
        }

        void put(Path p, Sealed s, T value, long size) {
            if (size > budget) {
                return;
            }
            entries.put(p, new Entry<>(s, value, size));
            bytes += size;
            while (bytes > budget) {
                take(entries.keySet().iterator().next());
            }
        }

        /** The entry of {@code p}, removed; null if there is none. */
        Entry<T> take(Path p) {
            Entry<T> e = entries.remove(p);
            if (e != null) {
                bytes -= e.bytes();
            }
            return e;
        }
    }

    private static final Kept<KeySamples> SAMPLES = new Kept<>(SAMPLE_BYTES);
    /** A native's key hashes, with the header CRC32C of the native they were taken for. */
    private record Hashes(long[] hashes, int headerCrc) {
    }

    private static final Kept<Hashes> HASHES = new Kept<>(HASH_BYTES);
    /** Filters built from kept hashes so far: {@link #takeHashes} calls that returned some (tests). */
    private static long hashesTaken;

    /**
     * Object store roots (absolute, normalised) open in this process that keep key filters, with
     * how many such stores each has open. Guarded by {@link #SEALED}.
     */
    private static final Map<Path, Integer> FILTERING = new HashMap<>();

    private WrittenFiles() {
    }

    /**
     * Remembers {@code file} as just sealed by this process, with the keys of its records
     * 0, K, 2K, … if its writer kept them all, and its keys' filter hashes if it kept those
     * ({@code samples} may be null).
     */
    static void sealed(Path file, KeySamples samples, int headerCrc) throws IOException {
        Path p = file.toAbsolutePath().normalize();
        Sealed s = identity(p);
        long[] hashes = samples == null ? null : samples.takeHashes();
        synchronized (SEALED) {
            SEALED.remove(p);
            SAMPLES.take(p);
            HASHES.take(p);
            if (s != null) {
                SEALED.put(p, s);
                if (samples != null && samples.complete() && samples.count() > 0) {
                    SAMPLES.put(p, s, samples, samples.bytes());
                }
                if (hashes != null && hashes.length > 0) {
                    HASHES.put(p, s, new Hashes(hashes, headerCrc), 8L * hashes.length);
                }
            }
        }
    }

    /**
     * Every key's filter hash of {@code file} in record order, as its writer kept them (see
     * {@link KeySamples}), taken once, or null: none were kept, they were taken or forgotten, the
     * file is no longer the one sealed (same file key, size and modification time), its file
     * system cannot tell, or the reader the filter is for ({@code fileBytes}, {@code headerCrc}:
     * its envelope's header CRC32C) reads other bytes than the ones sealed.
     */
    public static long[] takeHashes(Path file, long fileBytes, int headerCrc) {
        Kept.Entry<Hashes> e;
        try {
            e = take(HASHES, file);
        } catch (IOException unreadable) {
            return null; // the file's identity could not be read: the filter build walks the native
        }
        if (e == null || e.sealed().size() != fileBytes || e.value().headerCrc() != headerCrc) {
            return null;
        }
        synchronized (SEALED) {
            hashesTaken++;
        }
        return e.value().hashes();
    }

    /** How many times {@link #takeHashes} returned hashes (tests). */
    public static long hashesTaken() {
        synchronized (SEALED) {
            return hashesTaken;
        }
    }

    /**
     * Notes that an object store at {@code root} that keeps key filters opened ({@code open}) or
     * closed: natives written under such a root keep their keys' filter hashes.
     */
    public static void filtering(Path root, boolean open) {
        Path r = root.toAbsolutePath().normalize();
        synchronized (SEALED) {
            FILTERING.compute(r, (k, n) -> {
                int m = (n == null ? 0 : n) + (open ? 1 : -1);
                return m <= 0 ? null : m;
            });
        }
    }

    /**
     * Whether the writer of native {@code file} (an object store's, at {@code ROOT/ab/cd/…}) should
     * keep its keys' filter hashes: a store at that root that keeps filters is open here.
     */
    public static boolean keepsHashes(Path file) {
        Path cd = file.toAbsolutePath().normalize().getParent();
        Path root = cd == null || cd.getParent() == null ? null : cd.getParent().getParent();
        if (root == null) {
            return false;
        }
        synchronized (SEALED) {
            return FILTERING.containsKey(root);
        }
    }

    /**
     * The key samples its writer kept of {@code file} (see {@link KeySamples}), taken once, or
     * null: none were kept, they were taken or forgotten, or the file is no longer the one
     * sealed (same file key, size and modification time).
     */
    public static KeySamples takeSamples(Path file) throws IOException {
        Kept.Entry<KeySamples> e = take(SAMPLES, file);
        return e == null ? null : e.value();
    }

    /** {@code file}'s entry of {@code kept}, taken once, if the file is still the one sealed; else null. */
    private static <T> Kept.Entry<T> take(Kept<T> kept, Path file) throws IOException {
        Path p = file.toAbsolutePath().normalize();
        Kept.Entry<T> taken;
        synchronized (SEALED) {
            taken = kept.take(p);
        }
        return taken != null && taken.sealed().equals(identity(p)) ? taken : null;
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
            SAMPLES.take(p);
            HASHES.take(p);
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
