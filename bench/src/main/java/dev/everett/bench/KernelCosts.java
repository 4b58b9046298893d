package dev.everett.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * What the kernel charges a compaction for its files, apart from any engine's code: writing a
 * new file of a compaction's output size in 64 KiB {@code pwrite}s (the size the segment writer's
 * buffer grew to until 82a443d, 1 MiB since; RocksDB's writer issues calls of the same order), with and without an
 * {@code fallocate} first (RocksDB preallocates its outputs), and reading a file of an input's
 * size through a fresh mapping (the first pass pays the page-table set-up, the second does not,
 * closing the arena unmaps). Two more readings of the same file say where a first pass's cost
 * lies: a fresh mapping populated by {@code madvise(MADV_POPULATE_READ)} before its CRC pass
 * (where the cost is the kernel's own page faults, the pass after populating should cost what a
 * second pass does; under a hypervisor that shadows the page tables it does not), and the CRC taken through
 * {@code pread} into one reused 64 KiB buffer, as RocksDB reads (no mapping at all). Three more
 * rows weigh ways not taken: an output written through a shared mapping of a new file (its
 * pages are holes, filled on first touch) instead of {@code pwrite}; and an input copied whole
 * into anonymous huge pages as the compaction job copies it ({@code FileInMemory}), into pages
 * mapped for the copy and unmapped after it, against pages kept from an earlier round (what a
 * pool of copy memory would save). The last row is the CRC of the same file taken 32 KiB at a
 * time right after each window was read, as a merge takes its inputs' CRCs behind its reading
 * (the bytes are in cache; two clock reads a window included). Prints the
 * median of the rounds after the first half, in ms. Context for docs/benchmarks/compaction.md
 * ("The kernel's share", "A new machine").
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp bench/target/benchmarks.jar dev.everett.bench.KernelCosts [DIR] [BYTES] [ROUNDS]</pre>
 *
 * DIR defaults to /dev/shm (where the compaction benchmark writes), BYTES to 104,112,960 (the
 * native bytes of the benchmark's outputs), ROUNDS to 20.
 */
public final class KernelCosts {
    private static final int CHUNK = 1 << 16;
    private static final String[] NAMES = {"write", "fallocate", "write after fallocate", "delete", "map and CRC (first pass)", "CRC (pages mapped)", "unmap",
        "map and MADV_POPULATE_READ", "CRC after populating", "pread 64 KiB and CRC",
        "write through a mapping", "pread to new huge pages, CRC", "pread to reused ones, CRC", "CRC of cached 32 KiB windows"};
    /** The step in which a merge takes its inputs' CRCs behind its reading ({@code BodyCrcTrail}). */
    private static final int WINDOW = 32 << 10;
    /** {@code MADV_POPULATE_READ} (Linux 5.14). */
    private static final int MADV_POPULATE_READ = 22;
    private static final int MADV_HUGEPAGE = 14;
    private static final long HUGE_PAGE = 2L << 20;

    private KernelCosts() {
    }

    public static void main(String[] args) throws Throwable {
        Path dir = Path.of(args.length > 0 ? args[0] : "/dev/shm");
        long bytes = args.length > 1 ? Long.parseLong(args[1]) : 104_112_960L;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        Linker linker = Linker.nativeLinker();
        MethodHandle open = linker.downcallHandle(linker.defaultLookup().find("open").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        MethodHandle fallocate = linker.downcallHandle(linker.defaultLookup().find("fallocate").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
        MethodHandle close = linker.downcallHandle(linker.defaultLookup().find("close").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        MethodHandle madvise = linker.downcallHandle(linker.defaultLookup().find("madvise").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
        MethodHandle mmap = linker.downcallHandle(linker.defaultLookup().find("mmap").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
        MethodHandle munmap = linker.downcallHandle(linker.defaultLookup().find("munmap").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
        long hugeBytes = alignUp(bytes) + HUGE_PAGE; // slack to align the start
        long reused = hugePages(mmap, madvise, hugeBytes);
        ByteBuffer readBuffer = ByteBuffer.allocateDirect(CHUNK);
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
        for (int i = 0; i < CHUNK; i++) {
            chunk.put(i, (byte) (i * 31 + 7));
        }
        double[][] t = new double[NAMES.length][rounds];
        for (int r = 0; r < rounds; r++) {
            Path plain = dir.resolve("kernel-costs-plain.tmp");
            Path prealloc = dir.resolve("kernel-costs-falloc.tmp");
            long t0 = System.nanoTime();
            write(plain, bytes, chunk);
            long t1 = System.nanoTime();
            try (Arena a = Arena.ofConfined()) {
                int fd = (int) open.invokeExact(a.allocateFrom(create(prealloc).toString()), 1 /* O_WRONLY */);
                int rc = (int) fallocate.invokeExact(fd, 1 /* FALLOC_FL_KEEP_SIZE */, 0L, bytes);
                int closed = (int) close.invokeExact(fd);
                if (fd < 0 || rc != 0 || closed != 0) {
                    throw new IllegalStateException("fallocate on " + prealloc + " failed (fd " + fd + ", rc " + rc + ")");
                }
            }
            long t2 = System.nanoTime();
            write(prealloc, bytes, chunk);
            long t3 = System.nanoTime();
            Files.delete(prealloc);
            long t4 = System.nanoTime();
            long t5;
            long t6;
            long t7;
            try (FileChannel ch = FileChannel.open(plain, StandardOpenOption.READ)) {
                Arena arena = Arena.ofShared();
                long s0 = System.nanoTime();
                MemorySegment m = ch.map(FileChannel.MapMode.READ_ONLY, 0, bytes, arena);
                CRC32C first = new CRC32C();
                first.update(m.asByteBuffer());
                t5 = System.nanoTime();
                CRC32C second = new CRC32C();
                second.update(m.asByteBuffer());
                t6 = System.nanoTime();
                if (first.getValue() != second.getValue()) {
                    throw new IllegalStateException("two CRCs of one mapping differ");
                }
                // The CRC of bytes just read (in cache), as a merge takes its inputs' CRCs behind
                // its reading: each window is read once untimed, then its CRC timed.
                long cached = 0;
                CRC32C warm = new CRC32C();
                CRC32C hot = new CRC32C();
                for (long at = 0; at < bytes; at += WINDOW) {
                    ByteBuffer w = m.asSlice(at, Math.min(WINDOW, bytes - at)).asByteBuffer();
                    warm.update(w.duplicate());
                    long c0 = System.nanoTime();
                    hot.update(w);
                    cached += System.nanoTime() - c0;
                }
                t[13][r] = cached / 1e6;
                if (hot.getValue() != first.getValue() || warm.getValue() != first.getValue()) {
                    throw new IllegalStateException("the windows' CRC differs from the whole file's");
                }
                long u0 = System.nanoTime();
                arena.close();
                t7 = System.nanoTime();
                t[4][r] = (t5 - s0) / 1e6;
                t[5][r] = (t6 - t5) / 1e6;
                t[6][r] = (t7 - u0) / 1e6;
                try (Arena populated = Arena.ofShared()) {
                    long p0 = System.nanoTime();
                    MemorySegment pm = ch.map(FileChannel.MapMode.READ_ONLY, 0, bytes, populated);
                    int rc = (int) madvise.invokeExact(pm, bytes, MADV_POPULATE_READ);
                    if (rc != 0) {
                        throw new IllegalStateException("madvise(MADV_POPULATE_READ) on " + plain + " failed (rc " + rc + "; Linux 5.14 or later)");
                    }
                    long p1 = System.nanoTime();
                    CRC32C c = new CRC32C();
                    c.update(pm.asByteBuffer());
                    t[7][r] = (p1 - p0) / 1e6;
                    t[8][r] = (System.nanoTime() - p1) / 1e6;
                    if (c.getValue() != first.getValue()) {
                        throw new IllegalStateException("the populated mapping's CRC differs");
                    }
                }
                long q0 = System.nanoTime();
                CRC32C viaRead = new CRC32C();
                for (long at = 0; at < bytes; ) {
                    int n = ch.read(readBuffer.clear(), at);
                    if (n < 0) {
                        throw new IllegalStateException(plain + " ends at " + at + " of " + bytes);
                    }
                    viaRead.update(readBuffer.flip());
                    at += n;
                }
                t[9][r] = (System.nanoTime() - q0) / 1e6;
                if (viaRead.getValue() != first.getValue()) {
                    throw new IllegalStateException("the CRC read through pread differs from the mapped one");
                }
                // The copy a compaction makes of an input (FileInMemory): into huge pages mapped
                // for it (and unmapped after), or into huge pages kept from an earlier round.
                long h0 = System.nanoTime();
                long fresh = hugePages(mmap, madvise, hugeBytes);
                long crcFresh = readAndCrc(ch, plain, fresh, bytes);
                int unmapped = (int) munmap.invokeExact(fresh, hugeBytes);
                long h1 = System.nanoTime();
                long crcReused = readAndCrc(ch, plain, reused, bytes);
                t[11][r] = (h1 - h0) / 1e6;
                t[12][r] = (System.nanoTime() - h1) / 1e6;
                if (unmapped != 0 || crcFresh != first.getValue() || crcReused != first.getValue()) {
                    throw new IllegalStateException("a copy in huge pages differs from the mapped file (munmap rc " + unmapped + ")");
                }
            }
            Files.delete(plain);
            // An output written through a shared mapping of a new file instead of pwrite.
            long w0 = System.nanoTime();
            try (FileChannel ch = FileChannel.open(create(plain), StandardOpenOption.READ, StandardOpenOption.WRITE);
                 Arena mapped = Arena.ofShared()) {
                ch.truncate(0);
                ch.write(ByteBuffer.allocate(1), bytes - 1); // the file's size; its pages are holes
                MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, mapped);
                MemorySegment from = MemorySegment.ofBuffer(chunk);
                for (long at = 0; at < bytes; at += CHUNK) {
                    MemorySegment.copy(from, 0, m, at, Math.min(CHUNK, bytes - at));
                }
            }
            t[10][r] = (System.nanoTime() - w0) / 1e6;
            Files.delete(plain);
            t[0][r] = (t1 - t0) / 1e6;
            t[1][r] = (t2 - t1) / 1e6;
            t[2][r] = (t3 - t2) / 1e6;
            t[3][r] = (t4 - t3) / 1e6;
        }
        System.out.printf("%s, %,d bytes, median of rounds %d..%d, ms:%n", dir, bytes, rounds / 2, rounds - 1);
        for (int p = 0; p < NAMES.length; p++) {
            double[] x = Arrays.copyOfRange(t[p], rounds / 2, rounds);
            Arrays.sort(x);
            System.out.printf("  %-26s %7.2f  (%.2f..%.2f)%n", NAMES[p], x[x.length / 2], x[0], x[x.length - 1]);
        }
    }

    /** {@code size} bytes of anonymous memory advised as huge pages (never unmapped if kept). */
    private static long hugePages(MethodHandle mmap, MethodHandle madvise, long size) throws Throwable {
        long base = (long) mmap.invokeExact(0L, size, 0x1 | 0x2 /* PROT_READ | PROT_WRITE */, 0x02 | 0x20 /* MAP_PRIVATE | MAP_ANONYMOUS */, -1, 0L);
        if (base == -1L) {
            throw new IllegalStateException("mmap of " + size + " anonymous bytes failed");
        }
        int ignored = (int) madvise.invokeExact(MemorySegment.ofAddress(alignUp(base)), size - HUGE_PAGE, MADV_HUGEPAGE);
        return base;
    }

    /** Reads the file whole into the huge pages at {@code base} (aligned up), returns its CRC32C. */
    private static long readAndCrc(FileChannel ch, Path p, long base, long bytes) throws java.io.IOException {
        MemorySegment into = MemorySegment.ofAddress(alignUp(base)).reinterpret(bytes);
        for (long at = 0; at < bytes; ) {
            ByteBuffer b = into.asSlice(at, Math.min(1 << 30, bytes - at)).asByteBuffer();
            while (b.hasRemaining()) {
                if (ch.read(b, at + b.position()) < 0) {
                    throw new IllegalStateException(p + " ends before " + bytes + " bytes");
                }
            }
            at += b.capacity();
        }
        CRC32C c = new CRC32C();
        c.update(into.asByteBuffer());
        return c.getValue();
    }

    /** {@code n} rounded up to a whole number of huge pages. */
    private static long alignUp(long n) {
        return (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    }

    private static Path create(Path p) throws java.io.IOException {
        Files.deleteIfExists(p);
        return Files.createFile(p);
    }

    private static void write(Path p, long bytes, ByteBuffer chunk) throws java.io.IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            for (long at = 0; at < bytes; at += CHUNK) {
                ByteBuffer b = chunk.duplicate().clear().limit((int) Math.min(CHUNK, bytes - at));
                while (b.hasRemaining()) {
                    ch.write(b, at + b.position());
                }
            }
        }
    }
}
