package dev.everett.segment.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Maps files read-only into an arena: the channel is closed at once, the mapping lives with the
 * arena. Small files are read into the arena's memory instead ({@link #COPIED}). Every file
 * segment a reader gets comes from here or from {@link FileInMemory}.
 *
 * <p><b>One kind of segment.</b> Where this module may call native code, a mapping is handed out
 * as a plain native segment over the mapped bytes ({@code reinterpret}), read-only, not as the
 * JDK's mapped segment, so that a copy made by {@link FileInMemory} and a mapping are the same
 * class to the JIT. Record decoding calls {@link MemorySegment} through shared helpers, whose
 * type profiles are shared by every caller. A compaction reading copies while the same process
 * reads mappings made those call sites see one class more. The compaction's merge phase then
 * rose from 107 to 131 ms per 64 MiB compaction, and with one class it is back at 105
 * (docs/benchmarks/compaction.md, "Inputs in memory"). Without native access, mappings stay
 * mapped segments and {@link FileInMemory} maps as well: again one class.
 */
public final class MappedFile {
    /** Whether this module may call restricted methods ({@code --enable-native-access}). */
    static final boolean NATIVE_ACCESS = MappedFile.class.getModule().isNativeAccessEnabled();

    /**
     * Files up to this size are read into arena memory rather than mapped (where that keeps one
     * segment class: see the class comment). A mapping costs an {@code mmap}, a fault on the
     * first touch of each page and an {@code munmap}, where one read call fills a copy; and each
     * mapping counts against the kernel's per-process limit ({@code vm.max_map_count}, 65,530 by
     * default), which a store of many small segments (each an index, routing heads, an empty
     * native) would otherwise spend several at a time.
     */
    static final long COPIED = 64 << 10;

    private MappedFile() {
    }

    /**
     * The whole of {@code path}, mapped.
     *
     * @throws IllegalArgumentException if {@code path} is a directory (mapping one fails with an
     *                                  error that names no file)
     */
    public static MemorySegment readOnly(Path path, Arena arena) throws IOException {
        // Nothing to undo if the channel fails to close: the caller's arena holds what was read.
        return opened(path, (ch, size) -> NATIVE_ACCESS && size <= COPIED ? copy(ch, path, size, arena) : map(ch, 0, size, arena), read -> { });
    }

    /** A file's bytes and what releases them: its own arena's close, or its copy's release. */
    public record Loaded(MemorySegment bytes, Runnable release) {
        /** Releases the bytes because opening them failed with {@code failure}, to which a failure to release is added. */
        public void releaseAfter(Throwable failure) {
            try {
                release.run();
            } catch (RuntimeException | Error e) {
                failure.addSuppressed(e);
            }
        }
    }

    /** Whether {@link #readOnly(Path, SmallCopies)} copies small files into its {@link SmallCopies} (with native access) or maps every file. */
    public static boolean copiesSmallFiles() {
        return NATIVE_ACCESS;
    }

    /**
     * The whole of {@code path}, as {@link #readOnly(Path, Arena)} reads it, except that a file
     * small enough to be copied is copied into {@code copies} (shared with other small files)
     * instead of an arena of its own; a mapping gets an arena of its own.
     */
    public static Loaded readOnly(Path path, SmallCopies copies) throws IOException {
        java.util.Objects.requireNonNull(copies, "copies");
        return opened(path, (ch, size) -> {
            if (NATIVE_ACCESS && size <= COPIED) {
                SmallCopies.Copy copy = copies.copy(ch, path, size);
                return new Loaded(copy.bytes(), copy::release);
            }
            return inOwnArena(arena -> map(ch, 0, size, arena));
        }, read -> read.release().run());
    }

    /** Fills an arena with a file's bytes. */
    @FunctionalInterface
    public interface Fill {
        MemorySegment into(Arena arena) throws IOException;
    }

    /** The bytes {@code fill} puts into a shared arena of their own, which the release closes (as does a failure). */
    public static Loaded inOwnArena(Fill fill) throws IOException {
        Arena arena = Arena.ofShared();
        try {
            return new Loaded(fill.into(arena), arena::close);
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /** Reads an open file of a given size. */
    @FunctionalInterface
    private interface Read<T> {
        T read(FileChannel ch, long size) throws IOException;
    }

    /**
     * Opens {@code path} for reading and hands it to {@code read}, refusing a directory by name;
     * if the channel then fails to close, {@code undo} is given what was read before the failure
     * is thrown.
     */
    private static <T> T opened(Path path, Read<T> read, java.util.function.Consumer<T> undo) throws IOException {
        java.util.Objects.requireNonNull(path, "path");
        T result = null;
        // A directory opens for reading on Linux; only mapping it fails (or, when it reports no
        // bytes, nothing fails at all). So the directory check runs on those paths alone, not as
        // a stat before every file this process maps.
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) {
                refuseDirectory(path);
            }
            result = read.read(ch, size);
        } catch (IOException e) {
            if (result != null) {
                try {
                    undo.accept(result);
                } catch (RuntimeException | Error u) {
                    e.addSuppressed(u);
                }
            }
            refuseDirectory(path);
            throw e;
        }
        return result;
    }

    /** Maps {@code size} bytes of {@code ch} from {@code offset}, read-only, into {@code arena} (as the class comment says). */
    public static MemorySegment map(FileChannel ch, long offset, long size, Arena arena) throws IOException {
        MemorySegment mapped = ch.map(FileChannel.MapMode.READ_ONLY, offset, size, arena);
        if (!NATIVE_ACCESS) {
            return mapped;
        }
        // Same bytes, same lifetime (the arena unmaps them); read-only, so that a stray write is
        // an exception rather than a fault on a read-only page.
        return MemorySegment.ofAddress(mapped.address()).reinterpret(size, arena, null).asReadOnly();
    }

    /** The first {@code size} bytes of {@code ch}, read into ordinary memory of {@code arena}, read-only. */
    static MemorySegment copy(FileChannel ch, Path path, long size, Arena arena) throws IOException {
        MemorySegment copy = arena.allocate(Math.max(size, 1), Long.BYTES).asSlice(0, size);
        FileInMemory.readFully(ch, path, copy);
        return copy.asReadOnly();
    }

    static void refuseDirectory(Path path) {
        if (java.nio.file.Files.isDirectory(path)) {
            throw new IllegalArgumentException(path + " is a directory, not an Everett file (a native .kv, an .index or a .filter)");
        }
    }
}
