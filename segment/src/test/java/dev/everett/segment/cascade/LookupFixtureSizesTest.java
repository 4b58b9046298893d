package dev.everett.segment.cascade;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.natives.NativeWriter;
import dev.everett.segment.objects.OpenObjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Everett's lookup fixture (docs/benchmarks/lookup.md, "Fixture and settings") at N = 8,192: four runs by stride, a
 * secondary, a routing head. Every file's size must equal the size Everett's layout gives; the
 * whole-fixture totals of this model match Everett's published totals for N = 131,072, so the
 * per-file sizes pin the section list, alignment, length formulas and the sampling rule.
 */
class LookupFixtureSizesTest {
    static byte[] key(long i) {
        byte[] k = new byte[16];
        Arrays.fill(k, 0, 8, (byte) 'p');
        for (int b = 0; b < 8; b++) {
            k[8 + b] = (byte) ((2 * i) >>> (56 - 8 * b));
        }
        return k;
    }

    static byte[] value(long i) {
        byte[] v = new byte[32];
        for (int b = 0; b < 8; b++) {
            v[b] = (byte) (i >>> (8 * b));
        }
        Arrays.fill(v, 8, 32, (byte) 'v');
        return v;
    }

    static ObjectId run(OpenObjects store, int n, int stride) throws Exception {
        ObjectId id = ObjectId.random();
        try (NativeWriter w = store.newNative(id, CommonWidthRule.policy())) {
            for (long i = 0; i < n; i += stride) {
                w.put(key(i), value(i));
            }
            w.finish();
        }
        return id;
    }

    @Test
    void everyFileHasEverettsSize(@TempDir Path dir) throws Exception {
        int n = 8192;
        try (OpenObjects store = new OpenObjects(dir, Policy.defaultBytes())) {
            ObjectId r1 = run(store, n, 1);
            Catalog c2 = store.index(r1, null, null);
            ObjectId r4 = run(store, n, 4);
            Catalog c4 = store.index(r4, c2, null);
            ObjectId r16 = run(store, n, 16);
            ObjectId r128 = run(store, n, 128);
            Catalog c7 = store.index(r16, c4, r128);
            ObjectId r64 = run(store, n, 64);
            Catalog c9 = store.index(r64, c7, null);
            Catalog head = store.prepareHead(c9, null);

            assertEquals(304_224, Files.size(store.nativePath(r1)));
            assertEquals(9_984, Files.size(store.indexPath(c2.indexId)));
            assertEquals(76_296, Files.size(store.nativePath(r4)));
            assertEquals(5_392, Files.size(store.indexPath(c4.indexId)));
            assertEquals(19_328, Files.size(store.nativePath(r16)));
            assertEquals(2_704, Files.size(store.nativePath(r128)));
            assertEquals(2_088, Files.size(store.indexPath(c7.indexId)));
            assertEquals(5_080, Files.size(store.nativePath(r64)));
            assertEquals(1_032, Files.size(store.indexPath(c9.indexId)));
            assertEquals(248, Files.size(store.nativePath(head.nativeId)));
            assertEquals(720, Files.size(store.indexPath(head.indexId)));
            assertEquals(12, head.virtualCount());
            assertEquals(174, c9.virtualCount());
            assertEquals(690, c7.virtualCount());
            assertEquals(2595, c4.virtualCount());

            head.verify();
            Cascade cascade = new Cascade(head);
            for (long i = 0; i < n; i++) {
                Lookup hit = cascade.get(key(i), 16);
                assertEquals(Lookup.Status.VALUE, hit.status(), "ordinal " + i);
                assertEquals(Arrays.toString(value(i)), Arrays.toString(hit.valueBytes()));
                byte[] miss = key(i);
                miss[15] |= 1;
                assertEquals(Lookup.Status.ABSENT, cascade.get(miss, 16).status(), "miss " + i);
            }
        }
    }
}
