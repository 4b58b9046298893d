package dev.everett.segment.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads whole files into memory owned by an arena, for a reader that will read every byte once
 * (a compaction's inputs). A mapping costs a page fault, or on some hypervisors a shadow
 * page-table fill, on the first touch of every 4 KiB page of every new mapping; a copy read with
 * {@code pread} into anonymous memory advised as huge pages ({@code MADV_HUGEPAGE}) pays one
 * fault per 2 MiB instead. On a guest whose hypervisor shadows page tables that is about 20 ms
 * against 50 ms per 100 MB (docs/benchmarks/compaction.md, "A new machine"). The bytes read are
 * the bytes checked: a copy does not change under its reader when the file does.
 *
 * <p>Anonymous huge-page memory needs three native calls ({@code mmap}, {@code madvise},
 * {@code munmap}); they are made only on Linux and only when the JVM lets this module call native
 * code ({@code --enable-native-access=dev.everett.segment}, or {@code ALL-UNNAMED} on the class
 * path). Otherwise, and when the kernel refuses the memory, {@link #readOnly} maps the file with
 * {@link MappedFile}: the same bytes, paid for page by page. Where native calls are allowed, files
 * under {@link #HUGE_PAGE} bytes are copied into ordinary arena memory; where they are not,
 * nothing is copied, so that every file segment of the process stays one class
 * ({@link MappedFile}'s class comment says why that matters).
 */
public final class FileInMemory {
    /** The x86-64 and arm64 transparent huge page size: the unit the copy is aligned to. */
    static final long HUGE_PAGE = 2L << 20;
    /** One read call moves at most this much (a {@link ByteBuffer} holds at most 2 GiB). */
    private static final int MAX_READ = 1 << 30;

    private FileInMemory() {
    }

    /**
     * True when {@link #readOnly} copies files (large ones into huge-page memory, smaller ones
     * into ordinary memory) rather than mapping them: on Linux (x86-64, arm64) with native access.
     */
    public static boolean copiesFiles() {
        return Native.CALLS != null;
    }

    /**
     * The whole of {@code path} in memory owned by {@code arena} (released when it closes): a
     * copy, or where no copy can be made in huge pages (see the class comment), a mapping.
     *
     * @throws IOException if the file cannot be read, or ends before the size it had when opened
     * @throws IllegalArgumentException if {@code path} is a directory
     */
    public static MemorySegment readOnly(Path path, Arena arena) throws IOException {
        Native calls = Native.CALLS;
        if (calls == null) {
            return MappedFile.readOnly(path, arena);
        }
        java.util.Objects.requireNonNull(path, "path");
        MemorySegment copy;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) {
                MappedFile.refuseDirectory(path);
            }
            if (size < HUGE_PAGE) {
                return MappedFile.copy(ch, path, size, arena);
            }
            if ((copy = calls.allocate(size, arena)) == null) {
                return MappedFile.map(ch, 0, size, arena);
            }
            readFully(ch, path, copy);
        } catch (IOException e) {
            MappedFile.refuseDirectory(path);
            throw e;
        }
        return copy.asReadOnly();
    }

    /** Fills {@code into} from the start of {@code ch}; a file that ends first is an error naming {@code path} and the offset. */
    static void readFully(FileChannel ch, Path path, MemorySegment into) throws IOException {
        long size = into.byteSize();
        for (long at = 0; at < size; ) {
            ByteBuffer b = into.asSlice(at, Math.min(MAX_READ, size - at)).asByteBuffer();
            while (b.hasRemaining()) {
                int n = ch.read(b, at + b.position());
                if (n < 0) {
                    throw new IOException(path + ": the file ends at byte " + (at + b.position())
                            + " while being read whole; it had " + size + " bytes when opened");
                }
            }
            at += b.capacity();
        }
    }

    /** The native calls, or none where they cannot be made (not Linux, native access not enabled, a symbol missing). */
    private record Native(MethodHandle mmap, MethodHandle madvise, MethodHandle munmap) {
        private static final int PROT_READ_WRITE = 0x1 | 0x2;
        private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
        private static final int MADV_HUGEPAGE = 14;
        static final Native CALLS = find();

        private static Native find() {
            // The flag values below are those of Linux on x86-64 and arm64 (MIPS, for one, differs).
            String arch = System.getProperty("os.arch", "");
            if (!System.getProperty("os.name", "").startsWith("Linux") || !(arch.equals("amd64") || arch.equals("aarch64"))
                    || !MappedFile.NATIVE_ACCESS) {
                return null;
            }
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                return new Native(
                        linker.downcallHandle(libc.find("mmap").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG)),
                        linker.downcallHandle(libc.find("madvise").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT)),
                        linker.downcallHandle(libc.find("munmap").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG)));
            } catch (RuntimeException | LinkageError e) {
                return null; // no such symbols, or native access refused after all: map instead
            }
        }

        /**
         * {@code size} bytes of anonymous memory aligned to a huge page and advised as huge
         * pages, unmapped when {@code arena} closes; null if the kernel refuses the mapping.
         */
        MemorySegment allocate(long size, Arena arena) {
            long whole = (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
            long reserved = whole + HUGE_PAGE; // slack to align the start
            long base;
            try {
                base = (long) mmap.invokeExact(0L, reserved, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
            } catch (Throwable t) {
                throw new IllegalStateException("mmap of " + reserved + " anonymous bytes failed", t);
            }
            if (base == -1L) {
                return null; // MAP_FAILED (ENOMEM and the like): the caller maps the file instead
            }
            long start = (base + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
            try {
                // Advice only: where huge pages are off the copy still works, in 4 KiB pages.
                int ignored = (int) madvise.invokeExact(start, whole, MADV_HUGEPAGE);
            } catch (Throwable t) {
                unmap(base, reserved);
                throw new IllegalStateException("madvise(MADV_HUGEPAGE) failed", t);
            }
            MemorySegment all;
            try {
                all = MemorySegment.ofAddress(base).reinterpret(reserved, arena, s -> unmap(base, reserved));
            } catch (RuntimeException e) {
                unmap(base, reserved);
                throw e;
            }
            return all.asSlice(start - base, size);
        }

        private void unmap(long base, long bytes) {
            int rc;
            try {
                rc = (int) munmap.invokeExact(base, bytes);
            } catch (Throwable t) {
                throw new IllegalStateException("munmap failed", t);
            }
            if (rc != 0) {
                throw new IllegalStateException("munmap of " + bytes + " bytes at 0x" + Long.toHexString(base) + " failed");
            }
        }
    }
}
