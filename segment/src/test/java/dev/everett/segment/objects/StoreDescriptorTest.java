package dev.everett.segment.objects;

import static dev.everett.segment.objects.StoreFixture.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.BackspaceCode;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;
import dev.everett.api.SegmentFormat;
import dev.everett.api.Unit;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store records its whole policy, value grammar included, in {@code ROOT/OBJECTS} and refuses
 * to open under another; a damaged descriptor fails naming the file and offset.
 */
class StoreDescriptorTest {
    @TempDir
    Path dir;

    private static final Policy BYTES = Policy.defaultBytes();
    private static final Policy BITS = Policy.stringPolicy();

    /** A recorded policy, a policy differing from it in one field, and that field's name. */
    static Stream<Arguments> mismatches() {
        return Stream.of(
                Arguments.of(BYTES, BYTES.withGrammar(ValueGrammar.RAW), "value grammar", "RAW", "OPTIONAL"),
                Arguments.of(BYTES.withGrammar(ValueGrammar.RAW), BYTES, "value grammar", "OPTIONAL", "RAW"),
                Arguments.of(BYTES, BYTES.withBlockWidth(7), "block width W", "7", "15"),
                Arguments.of(BYTES, BYTES.withGroupSize(31), "group size K", "31", "15"),
                Arguments.of(BYTES, BYTES.withValueWidth(ValueWidth.fixed(9)), "value width", "9", "-1"),
                Arguments.of(BYTES, BYTES.withUnit(Unit.BIT, BackspaceCode.expGolomb(0), SegmentFormat.KV02), "unit", "BIT", "BYTE"),
                Arguments.of(BITS, BITS.withFormat(SegmentFormat.KV02), "segment format", "KV02", "KV03"),
                Arguments.of(BITS, BITS.withBackspace(BackspaceCode.golomb(3)), "backspace code", "1", "0"),
                Arguments.of(BITS, BITS.withBackspace(BackspaceCode.expGolomb(2)), "backspace parameter", "2", "0"));
    }

    @ParameterizedTest(name = "{2}: asked {3}, stored {4}")
    @MethodSource("mismatches")
    void aStoreRefusesEveryOtherPolicyNamingTheFieldAndBothValues(Policy stored, Policy asked, String field, String askedValue,
            String storedValue) throws IOException {
        Path root = dir.resolve("store");
        try (ObjectStore store = new MappedObjectStore(root, stored, ObjectStoreOptions.defaults())) {
            write(store, "k", 10);
        }
        PolicyMismatchException e = assertThrows(PolicyMismatchException.class,
                () -> new MappedObjectStore(root, asked, ObjectStoreOptions.defaults()));
        assertEquals(root.resolve("OBJECTS"), e.file());
        assertTrue(e.field().startsWith(field), e.field());
        assertTrue(e.getMessage().contains("expects " + askedValue + ", file has " + storedValue), e.getMessage());
        // The descriptor is untouched and the store still opens under its own policy.
        new MappedObjectStore(root, stored, ObjectStoreOptions.defaults()).close();
    }

    @Test
    void theDescriptorIsWrittenOnceAndReadBack() throws IOException {
        Path root = dir.resolve("store");
        new MappedObjectStore(root, BITS, ObjectStoreOptions.defaults()).close();
        byte[] written = Files.readAllBytes(root.resolve("OBJECTS"));
        assertArrayEquals(StoreDescriptor.encode(BITS), written);
        assertEquals(BITS, StoreDescriptor.read(root.resolve("OBJECTS")));
        new MappedObjectStore(root, BITS, ObjectStoreOptions.defaults()).close();
        assertArrayEquals(written, Files.readAllBytes(root.resolve("OBJECTS")));
    }

    @Test
    void everyBitFlipAndTruncationOfTheDescriptorFailsNamingItAndTheOffset() throws IOException {
        Path root = dir.resolve("store");
        new MappedObjectStore(root, BYTES, ObjectStoreOptions.defaults()).close();
        Path file = root.resolve("OBJECTS");
        byte[] pristine = Files.readAllBytes(file);
        int cases = 0;
        for (int bit = 0; bit < pristine.length * 8; bit++) {
            byte[] b = pristine.clone();
            b[bit >>> 3] ^= (byte) (1 << (bit & 7));
            Files.write(file, b);
            assertDamaged(root, file, "bit " + bit + " flipped");
            cases++;
        }
        for (int n = 0; n < pristine.length; n++) {
            Files.write(file, Arrays.copyOf(pristine, n));
            assertDamaged(root, file, "cut to " + n + " bytes");
            cases++;
        }
        assertEquals(pristine.length * 9, cases);
    }

    private static void assertDamaged(Path root, Path file, String damage) {
        CorruptSegmentException e = assertThrows(CorruptSegmentException.class,
                () -> new MappedObjectStore(root, BYTES, ObjectStoreOptions.defaults()), damage);
        assertEquals(file, e.file(), damage);
        assertTrue(e.offset() >= 0 && e.getMessage().startsWith(file + " @" + e.offset()), damage + ": " + e.getMessage());
    }
}
