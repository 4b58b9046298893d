package dev.everett.segment.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small files' copies share generations ({@link SmallCopies}): each copy holds its file's bytes
 * read-only; a generation retires when full and closes with its last copy; the memory held for
 * released copies stays bounded however many pass through; the pool's close frees everything, and
 * a copy used after it fails instead of reading freed memory.
 */
class SmallCopiesTest {
    @TempDir
    Path dir;

    private final Random rnd = new Random(0x5a11c0L);

    private Path file(int size) throws IOException {
        byte[] b = new byte[size];
        rnd.nextBytes(b);
        return Files.write(Files.createTempFile(dir, "small", ".bin"), b);
    }

    private static SmallCopies.Copy copy(SmallCopies copies, Path p) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            return copies.copy(ch, p, ch.size());
        }
    }

    @Test
    void copiesHoldTheFilesBytesReadOnlyInOneGeneration() throws IOException {
        try (SmallCopies copies = new SmallCopies()) {
            List<SmallCopies.Copy> held = new ArrayList<>();
            for (int size : new int[] {0, 1, 96, 4095, (int) MappedFile.COPIED}) {
                Path p = file(size);
                SmallCopies.Copy c = copy(copies, p);
                held.add(c);
                assertArrayEquals(Files.readAllBytes(p), c.bytes().toArray(ValueLayout.JAVA_BYTE), "size " + size);
                assertTrue(c.bytes().isReadOnly());
            }
            assertEquals(1, copies.openGenerations());
            held.forEach(SmallCopies.Copy::release);
            // The current generation stays for the next copies; only a retired one closes.
            assertEquals(1, copies.openGenerations());
            assertTrue(held.get(0).bytes().scope().isAlive());
        }
    }

    @Test
    void aRetiredGenerationClosesWithItsLastCopy() throws IOException {
        try (SmallCopies copies = new SmallCopies()) {
            int size = 48 << 10;
            List<SmallCopies.Copy> first = new ArrayList<>();
            for (long bytes = 0; bytes + size <= SmallCopies.GENERATION_BYTES; bytes += size) {
                first.add(copy(copies, file(size)));
            }
            SmallCopies.Copy next = copy(copies, file(size));
            assertEquals(2, copies.openGenerations(), "a full generation retires and a new one takes the next copy");
            for (int i = 0; i < first.size() - 1; i++) {
                first.get(i).release();
            }
            assertEquals(2, copies.openGenerations(), "one copy still holds the retired generation");
            SmallCopies.Copy last = first.get(first.size() - 1);
            assertTrue(last.bytes().scope().isAlive());
            last.release();
            assertEquals(1, copies.openGenerations());
            assertFalse(last.bytes().scope().isAlive(), "the retired generation's arena is closed");
            assertThrows(IllegalStateException.class, () -> last.bytes().get(ValueLayout.JAVA_BYTE, 0));
            assertTrue(next.bytes().scope().isAlive());
            next.release();
        }
    }

    /** A store that opens and drops small objects for as long as it lives holds at most two generations. */
    @Test
    void memoryHeldForReleasedCopiesStaysBounded() throws IOException {
        Path p = file(40 << 10);
        try (SmallCopies copies = new SmallCopies()) {
            SmallCopies.Copy previous = null;
            for (int i = 0; i < 2_000; i++) {
                SmallCopies.Copy c = copy(copies, p);
                if (previous != null) {
                    previous.release();
                }
                previous = c;
                assertTrue(copies.openGenerations() <= 2, "after " + i + " copies: " + copies.openGenerations() + " generations");
            }
            previous.release();
        }
    }

    @Test
    void closeFreesEverythingAndRefusesNewCopies() throws IOException {
        Path p = file(1000);
        SmallCopies copies = new SmallCopies();
        SmallCopies.Copy held = copy(copies, p);
        int size = 48 << 10;
        for (long bytes = 0; bytes <= SmallCopies.GENERATION_BYTES; bytes += size) {
            copy(copies, file(size)); // never released: the first generation retires held
        }
        assertEquals(2, copies.openGenerations());
        copies.close();
        assertEquals(0, copies.openGenerations());
        assertFalse(held.bytes().scope().isAlive());
        assertThrows(IllegalStateException.class, () -> held.bytes().get(ValueLayout.JAVA_BYTE, 0));
        held.release(); // after close: harmless
        copies.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> copy(copies, p));
        assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
    }
}
