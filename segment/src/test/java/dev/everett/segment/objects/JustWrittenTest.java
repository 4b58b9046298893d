package dev.everett.segment.objects;

import static dev.everett.segment.objects.StoreFixture.key;
import static dev.everett.segment.objects.StoreFixture.write;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.segment.EverettSegmentEngine;
import dev.everett.segment.io.Envelope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;

/**
 * A native this process wrote through the store (its CRC computed while streaming it) is read
 * without a second CRC pass, as long as the file is still the one written; anything else pays the
 * pass, so damage is still caught.
 */
class JustWrittenTest extends StoreTestBase {
    private static boolean checks(ObjectStore store, ObjectId id) throws IOException {
        try (SegmentReader r = store.openNative(id)) {
            return ((ReaderHandle) r).nativeReader().verifiesChecksums();
        }
    }

    @Test
    void aNativeThisStoreWroteSkipsThePassAndOthersPayIt() throws IOException {
        ObjectId written;
        ObjectId viaPath = ObjectId.random();
        ObjectId copied = ObjectId.random();
        try (ObjectStore store = store()) {
            written = write(store, "k", 100);
            try (SegmentWriter w = new EverettSegmentEngine().newWriter(store.nativePath(viaPath), store.policy(), CommonWidthRule.policy())) {
                w.put(key("m", 1), new byte[] {1});
                w.finish();
            }
            Files.copy(store.nativePath(written), store.nativePath(copied)); // handed out for writing, but not written by a writer
            assertFalse(checks(store, written), "written by this store's writer: already checked");
            assertFalse(checks(store, viaPath), "published by this process into nativePath: already checked");
            assertTrue(checks(store, copied), "a copy was not written by a writer of this store");
        }
        try (ObjectStore again = store()) {
            assertTrue(checks(again, written), "another store instance did not hand the identity out");
        }
    }

    @Test
    void aJustWrittenNativeReplacedOnDiskPaysThePassAndIsCaught() throws IOException {
        try (ObjectStore store = store()) {
            ObjectId id = write(store, "k", 200);
            Path kv = store.nativePath(id);
            byte[] b = Files.readAllBytes(kv);
            b[Envelope.BYTES + 200] ^= 0x10; // a payload bit, envelope intact
            Path damaged = kv.resolveSibling("damaged");
            Files.write(damaged, b);
            Files.move(damaged, kv, StandardCopyOption.REPLACE_EXISTING);
            assertTrue(checks(store, id), "the file is no longer the one sealed");
            CorruptSegmentException e = assertThrows(CorruptSegmentException.class, () -> store.indexSegment(id));
            assertTrue(e.getMessage().contains(kv.toString()), e.getMessage());
        }
    }
}
