package dev.everett.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.Policy;
import dev.everett.compaction.Layout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code STORE} descriptor: read back as written, and only in that one form. */
class StoreDescriptorTest {
    @TempDir
    Path dir;

    @Test
    void readsBackWhatItWrites() throws IOException {
        for (Policy p : new Policy[] {Policy.defaultBytes(), Policy.stringPolicy()}) {
            for (Layout layout : Layout.values()) {
                StoreDescriptor d = new StoreDescriptor(p, layout);
                StoreDescriptor.write(StoreFiles.DEFAULT, dir, d);
                assertEquals(d, StoreDescriptor.read(StoreFiles.DEFAULT, dir));
            }
        }
    }

    /**
     * A descriptor whose checksum holds but whose fields repeat, come in another order or carry an
     * extra one is refused at the first byte that differs from the written form: else two files
     * could name one store's policy differently, and a repeated field would decide by position.
     */
    @Test
    void anotherFormWithAValidChecksumIsRefusedAtTheFirstDifference() throws IOException {
        StoreDescriptor.write(StoreFiles.DEFAULT, dir, new StoreDescriptor(Policy.defaultBytes(), Layout.PARTITIONED));
        Path file = dir.resolve(StoreDescriptor.FILE_NAME);
        String text = Files.readString(file, StandardCharsets.ISO_8859_1);
        String body = text.substring(0, text.lastIndexOf("crc32c="));
        int firstField = body.indexOf('\n') + 1;
        int secondField = body.indexOf('\n', firstField) + 1;
        String[] variants = {
            body + body.substring(body.lastIndexOf('\n', body.length() - 2) + 1), // the last field again, same value
            body.substring(0, firstField) + body.substring(secondField) + body.substring(firstField, secondField), // reordered
            body + "extra=1\n",                                                   // a field no writer puts
        };
        for (int i = 0; i < variants.length; i++) {
            CRC32C crc = new CRC32C();
            byte[] b = variants[i].getBytes(StandardCharsets.ISO_8859_1);
            crc.update(b);
            String variant = variants[i] + "crc32c=" + String.format("%08x", crc.getValue()) + "\n";
            Files.writeString(file, variant, StandardCharsets.ISO_8859_1);
            CorruptFileException e = assertThrows(CorruptFileException.class, () -> StoreDescriptor.read(StoreFiles.DEFAULT, dir));
            assertEquals(file, e.file());
            assertEquals(java.util.Arrays.mismatch(variant.getBytes(StandardCharsets.ISO_8859_1), text.getBytes(StandardCharsets.ISO_8859_1)),
                    e.offset(), e.getMessage());
            assertTrue(e.getMessage().contains("not in the form this store writes"), e.getMessage());
        }
    }
}
