package dev.everett.merge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.MergeEngine;
import dev.everett.api.MergeJob;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentCursor;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.api.TombstonePolicy;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A host reaches the merger through the SPI alone: {@link MergeEngine#load()} finds this module's engine. */
class MergeEngineTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private SegmentReader write(SegmentEngine engine, String name, String... kv) throws Exception {
        Path file = dir.resolve(name);
        try (SegmentWriter w = engine.newWriter(file, Policy.defaultBytes(), CommonWidthRule.policy())) {
            for (int i = 0; i < kv.length; i += 2) {
                if (kv[i + 1] == null) {
                    w.delete(b(kv[i]));
                } else {
                    w.put(b(kv[i]), b(kv[i + 1]));
                }
            }
            w.finish();
        }
        return engine.open(file, Policy.defaultBytes(), OpenMode.TYPED);
    }

    @Test
    void theServiceLoaderFindsTheNativeMergerAndItMergesNewestFirst() throws Exception {
        MergeEngine merges = MergeEngine.load();
        assertInstanceOf(NativeMergeEngine.class, merges);
        SegmentEngine engine = SegmentEngine.load();
        try (SegmentReader older = write(engine, "older.kv", "a", "1", "b", "2", "c", "3");
             SegmentReader newer = write(engine, "newer.kv", "b", "20", "c", null, "d", "4")) {
            Path out = dir.resolve("out.kv");
            try (MergeJob job = merges.merge(List.of(older, newer)).into(out).tombstones(TombstonePolicy.DROP).start()) {
                while (!job.done()) {
                    job.step(1);
                }
                assertEquals(3, job.finish().recordCount());
            }
            try (SegmentReader merged = engine.open(out, Policy.defaultBytes(), OpenMode.TYPED);
                 SegmentCursor c = merged.cursor()) {
                String[] want = {"a", "1", "b", "20", "d", "4"};
                for (int i = 0; i < want.length; i += 2) {
                    assertTrue(c.next());
                    assertArrayEquals(b(want[i]), c.key().toArray(ValueLayout.JAVA_BYTE));
                    assertArrayEquals(b(want[i + 1]), c.value().toArray(ValueLayout.JAVA_BYTE));
                }
                assertFalse(c.next());
                merged.verify();
            }
        }
    }

    @Test
    void aMergeWithNoInputsOrNoOutputIsRefused() throws Exception {
        MergeEngine merges = MergeEngine.load();
        assertThrows(IllegalArgumentException.class, () -> merges.merge(List.of()));
        SegmentEngine engine = SegmentEngine.load();
        try (SegmentReader only = write(engine, "only.kv", "a", "1")) {
            assertThrows(IllegalStateException.class, () -> merges.merge(List.of(only)).start());
        }
    }

    /**
     * Taking the inputs' CRCs as read is a capability an engine declares: this module's engine
     * does; an engine that says nothing cannot, and its builders refuse to be asked (so a host
     * relying on it checks its inputs first instead of trusting a builder that ignored the ask).
     */
    @Test
    void onlyAnEngineThatDeclaresItTakesItsInputsCrcsAsRead() throws Exception {
        assertTrue(MergeEngine.load().checksInputsAsRead());
        MergeEngine silent = runs -> null;
        assertFalse(silent.checksInputsAsRead());
        dev.everett.api.MergeBuilder bare = (dev.everett.api.MergeBuilder) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {dev.everett.api.MergeBuilder.class},
                (proxy, method, args) -> method.isDefault() ? java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args) : null);
        assertTrue(bare == bare.checkInputsAsRead(false), "asking for no check is always allowed");
        UnsupportedOperationException refused = assertThrows(UnsupportedOperationException.class, () -> bare.checkInputsAsRead(true));
        assertTrue(refused.getMessage().contains("cannot take its inputs' CRCs"), refused.getMessage());
    }
}
