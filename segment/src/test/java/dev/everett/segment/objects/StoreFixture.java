package dev.everett.segment.objects;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.SegmentWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Small natives for the object store tests: keys {@code prefix + %05d}, values naming key and tag. */
final class StoreFixture {
    private StoreFixture() {
    }

    /** A store of {@link dev.everett.api.Policy#defaultBytes()} at {@code dir/store}. */
    static ObjectStore open(java.nio.file.Path dir) throws IOException {
        return new MappedObjectStore(dir.resolve("store"), dev.everett.api.Policy.defaultBytes(), dev.everett.api.ObjectStoreOptions.defaults());
    }

    static byte[] key(String prefix, int i) {
        return String.format("%s%05d", prefix, i).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] value(String prefix, int i, String tag) {
        return (tag + ":" + prefix + i).getBytes(StandardCharsets.US_ASCII);
    }

    /** Writes native {@code id} of {@code n} records through the store. */
    static ObjectId write(ObjectStore store, ObjectId id, String prefix, int n, String tag) throws IOException {
        try (SegmentWriter w = store.newSegment(id, CommonWidthRule.policy())) {
            for (int i = 0; i < n; i++) {
                w.put(key(prefix, i), value(prefix, i, tag));
            }
            w.finish();
        }
        return id;
    }

    static ObjectId write(ObjectStore store, String prefix, int n) throws IOException {
        return write(store, ObjectId.random(), prefix, n, "v");
    }
}
