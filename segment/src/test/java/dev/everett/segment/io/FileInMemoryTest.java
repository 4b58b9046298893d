package dev.everett.segment.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files read whole into memory ({@link FileInMemory}) and mapped ({@link MappedFile}) hold the
 * file's bytes, refuse writes, die with their arena, and, without native access, are mappings
 * of the JDK's own kind made with no restricted call.
 */
class FileInMemoryTest {
    @TempDir
    Path dir;

    /** Sizes around the huge page: ordinary copies below it, huge-page copies from it on. */
    @Test
    void copiesHoldTheFilesBytes() throws IOException {
        Random rnd = new Random(0x1f11e5L);
        long page = FileInMemory.HUGE_PAGE;
        for (long size : new long[] {1, 4095, page - 1, page, page + 1, 2 * page + 12_345}) {
            byte[] bytes = new byte[(int) size];
            rnd.nextBytes(bytes);
            Path f = dir.resolve("f-" + size);
            Files.write(f, bytes);
            for (boolean copy : new boolean[] {true, false}) {
                try (Arena arena = Arena.ofShared()) {
                    MemorySegment s = copy ? FileInMemory.readOnly(f, arena) : MappedFile.readOnly(f, arena);
                    assertEquals(size, s.byteSize(), f + (copy ? " copied" : " mapped"));
                    assertArrayEquals(bytes, s.toArray(ValueLayout.JAVA_BYTE), f + (copy ? " copied" : " mapped"));
                    assertTrue(s.isReadOnly(), "a reader's bytes are read-only");
                    assertThrows(IllegalArgumentException.class, () -> s.set(ValueLayout.JAVA_BYTE, 0, (byte) 1));
                    // With native access every file segment is one plain class: copies, and mappings as views.
                    assertEquals(!MappedFile.NATIVE_ACCESS, s.isMapped(), f + (copy ? " copied" : " mapped"));
                    if (copy && FileInMemory.copiesFiles()) {
                        if (size >= page) {
                            assertEquals(0, s.address() % page, "a large copy starts on a huge page");
                        }
                        byte[] changed = bytes.clone();
                        changed[0] ^= 1;
                        Files.write(f, changed);
                        assertArrayEquals(bytes, s.toArray(ValueLayout.JAVA_BYTE), "a copy keeps what it read");
                        Files.write(f, bytes);
                    }
                }
            }
        }
    }

    /**
     * Files up to {@link MappedFile#COPIED} bytes are read into memory where native access keeps
     * copies and mappings one class (a later change to the file is not seen); larger ones are
     * mapped (it is).
     */
    @Test
    void smallFilesAreCopiedAndLargerOnesMapped() throws IOException {
        for (long size : new long[] {1, 4096, MappedFile.COPIED, MappedFile.COPIED + 1}) {
            byte[] bytes = new byte[(int) size];
            Path f = dir.resolve("s-" + size);
            Files.write(f, bytes);
            try (Arena arena = Arena.ofShared();
                 java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(f, java.nio.file.StandardOpenOption.WRITE)) {
                MemorySegment s = MappedFile.readOnly(f, arena);
                ch.write(java.nio.ByteBuffer.wrap(new byte[] {7}), size - 1);
                boolean copied = MappedFile.NATIVE_ACCESS && size <= MappedFile.COPIED;
                assertEquals(copied ? 0 : 7, s.get(ValueLayout.JAVA_BYTE, size - 1), f + " (copied: " + copied + ")");
            }
        }
    }

    /** The tests run with native access (the build's surefire arguments): on Linux the copies are made in huge pages. */
    @Test
    void hugePagesWhereNativeCallsAreAllowed() {
        boolean linux = System.getProperty("os.name", "").startsWith("Linux");
        assertEquals(linux && FileInMemory.class.getModule().isNativeAccessEnabled(), FileInMemory.copiesFiles());
    }

    @Test
    void aCopyDiesWithItsArena() throws IOException {
        Path f = dir.resolve("big");
        Files.write(f, new byte[(int) FileInMemory.HUGE_PAGE + 1]);
        Arena arena = Arena.ofShared();
        MemorySegment s = FileInMemory.readOnly(f, arena);
        arena.close();
        assertThrows(IllegalStateException.class, () -> s.get(ValueLayout.JAVA_BYTE, 0));
    }

    @Test
    void aDirectoryIsRefusedByName() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FileInMemory.readOnly(dir, arena));
            assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
        }
    }

    @Test
    void anEmptyFileIsAnEmptySegment() throws IOException {
        Path f = Files.createFile(dir.resolve("empty"));
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(0, FileInMemory.readOnly(f, arena).byteSize());
        }
    }

    /** A file shorter than the copy it is read into (it shrank after its size was taken) is an error naming it and the offset. */
    @Test
    void aFileEndingEarlyIsAnErrorNamingIt() throws IOException {
        Path f = dir.resolve("short");
        Files.write(f, new byte[1000]);
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            MemorySegment into = arena.allocate(1500);
            IOException e = assertThrows(IOException.class, () -> FileInMemory.readFully(ch, f, into));
            assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("ends at byte 1000")
                    && e.getMessage().contains("1500 bytes"), e.getMessage());
        }
    }

    /**
     * In a JVM that does not let the module call native code: no huge pages, the copy is a
     * mapping, the bytes are the file's, and the JVM warns of no restricted call.
     */
    @Test
    void withoutNativeAccessItMapsWithoutWarning() throws Exception {
        byte[] bytes = new byte[(int) FileInMemory.HUGE_PAGE + 7];
        new Random(7).nextBytes(bytes);
        Path f = dir.resolve("probe");
        Files.write(f, bytes);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Probe.class.getName(), f.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe JVM did not finish");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        assertFalse(out.contains("WARNING"), out);
        assertEquals("huge pages false, mapped true, bytes " + java.util.Arrays.hashCode(bytes), out.strip());
    }

    /** Run by {@link #withoutNativeAccessItMapsWithoutWarning} in a JVM without {@code --enable-native-access}. */
    public static final class Probe {
        public static void main(String[] args) throws IOException {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment s = FileInMemory.readOnly(Path.of(args[0]), arena);
                System.out.println("huge pages " + FileInMemory.copiesFiles() + ", mapped " + s.isMapped()
                        + ", bytes " + java.util.Arrays.hashCode(s.toArray(ValueLayout.JAVA_BYTE)));
            }
        }
    }
}
