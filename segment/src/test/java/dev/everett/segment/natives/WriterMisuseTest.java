package dev.everett.segment.natives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.BackspaceCode;
import dev.everett.api.CommonWidthRule;
import dev.everett.api.KeyOrderException;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.api.ValueGrammar;
import dev.everett.api.ValueWidth;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer refuses what would make a bad file, then stays poisoned: it accepts nothing more,
 * cannot finish, and publishes nothing (no target, no temporary file left behind). Finishing
 * publishes exactly the target.
 */
class WriterMisuseTest {
    private static final Policy OPTIONAL = Policy.defaultBytes();
    private static final Policy RAW = Policy.defaultBytes().withGrammar(ValueGrammar.RAW);

    @Test
    void unsortedKeyNamesBothKeysAndPoisons(@TempDir Path dir) throws IOException {
        KeyOrderException e = refusedAfter(dir, w -> w.put(bytes("apricot"), bytes("3")), "apple", "banana");
        assertMentionsHex(e, "banana", "apricot");
    }

    @Test
    void duplicateKeyNamesTheKeyAndPoisons(@TempDir Path dir) throws IOException {
        KeyOrderException e = refusedAfter(dir, w -> w.delete(bytes("apple")), "apple");
        // Both keys are the same bytes, so one hex spelling names both.
        assertMentionsHex(e, "apple", "apple");
        assertTrue(e.getMessage().contains("duplicate"), e.getMessage());
    }

    @Test
    void aProperPrefixAfterItsExtensionIsOutOfOrder(@TempDir Path dir) throws IOException {
        KeyOrderException e = refusedAfter(dir, w -> w.put(bytes("a"), bytes("2")), "ab");
        assertMentionsHex(e, "ab", "a");
    }

    /**
     * A write that fails part way through a record (here the file channel, closed by an interrupt
     * while the record's large value is flushed; a full disk fails the same way) may leave part
     * of the record behind, so the writer takes no record after it, not even one that would fit
     * in its buffer without touching the file, and cannot finish.
     */
    @Test
    void aFailedWritePoisonsTheWriter(@TempDir Path dir) throws IOException {
        NativeWriter w = new NativeWriter(dir.resolve("failed.kv"), RAW, CommonWidthRule.policy());
        w.put(bytes("a"), bytes("1"));
        Thread.currentThread().interrupt();
        try {
            assertThrows(java.nio.channels.ClosedByInterruptException.class, () -> w.put(bytes("b"), new byte[1 << 17]));
        } finally {
            Thread.interrupted();
        }
        IllegalStateException next = assertThrows(IllegalStateException.class, () -> w.put(bytes("c"), bytes("3")));
        assertTrue(next.getMessage().contains("failed to write an earlier record"), next.getMessage());
        assertThrows(IllegalStateException.class, w::finish);
        w.close();
        assertEquals(List.of(), names(dir));
    }

    /** 0x80 sorts after 0x7f unsigned; a signed comparison would get both of these wrong. */
    @Test
    void keysCompareUnsigned(@TempDir Path dir) throws IOException {
        Path ok = dir.resolve("ok.kv");
        try (NativeWriter w = new NativeWriter(ok, RAW, CommonWidthRule.policy())) {
            w.put(new byte[] {0x7f}, new byte[0]);
            w.put(new byte[] {(byte) 0x80}, new byte[0]);
            w.finish();
        }
        Path bad = dir.resolve("bad.kv");
        NativeWriter w = new NativeWriter(bad, RAW, CommonWidthRule.policy());
        w.put(new byte[] {(byte) 0x80}, new byte[0]);
        KeyOrderException e = assertThrows(KeyOrderException.class, () -> w.put(new byte[] {0x7f}, new byte[0]));
        assertTrue(e.getMessage().contains("80") && e.getMessage().contains("7f"), e.getMessage());
        w.close();
        assertEquals(List.of(ok.getFileName().toString()), names(dir));
    }

    /**
     * The writer keeps the previous key in a buffer that grows with the keys; the bytes it already
     * holds (the shared prefix) must survive the growth, or the next comparison runs against zeros.
     */
    @Test
    void orderIsStillCheckedAfterTheKeyBufferGrows(@TempDir Path dir) throws IOException {
        NativeWriter w = writer(dir, OPTIONAL);
        byte[] longKey = bytes("b" + "x".repeat(100)); // longer than the initial 64-byte buffer
        w.put(bytes("b"), bytes("1"));
        w.put(longKey, bytes("2"));
        KeyOrderException e = assertThrows(KeyOrderException.class, () -> w.put(bytes("a"), bytes("3")));
        assertMentionsHex(e, "b" + "x".repeat(31), "a"); // the message shows the first 64 bytes
        assertPoisoned(w, dir);
    }

    @Test
    void orderIsCheckedThroughTheSegmentApiToo(@TempDir Path dir) throws IOException {
        NativeWriter w = writer(dir, OPTIONAL);
        w.put(MemorySegment.ofArray(bytes("b")), MemorySegment.ofArray(bytes("1")));
        KeyOrderException e = assertThrows(KeyOrderException.class, () -> w.delete(MemorySegment.ofArray(bytes("a"))));
        assertMentionsHex(e, "b", "a");
        assertPoisoned(w, dir);
    }

    @Test
    void wrongWidthUnderAFixedPolicyPoisons(@TempDir Path dir) throws IOException {
        NativeWriter w = writer(dir, RAW.withValueWidth(ValueWidth.fixed(4)));
        w.put(bytes("a"), bytes("abcd"));
        assertThrows(IllegalArgumentException.class, () -> w.put(bytes("b"), bytes("abc")));
        assertPoisoned(w, dir);
    }

    /** OPTIONAL fixed(1): the slot holds the tag alone, so only tombstones and empty values fit. */
    @Test
    void optionalFixedOneTakesOnlyTombstonesAndEmptyValues(@TempDir Path dir) throws IOException {
        Policy policy = OPTIONAL.withValueWidth(ValueWidth.fixed(1));
        Path ok = dir.resolve("ok.kv");
        try (NativeWriter w = new NativeWriter(ok, policy, CommonWidthRule.policy())) {
            w.delete(bytes("a"));
            w.put(bytes("b"), new byte[0]);
            assertEquals(1, w.finish().commonWidth());
        }
        Path target = dir.resolve("s.kv");
        NativeWriter w = new NativeWriter(target, policy, CommonWidthRule.policy());
        w.delete(bytes("a"));
        assertThrows(IllegalArgumentException.class, () -> w.put(bytes("b"), bytes("x")));
        w.close();
        assertEquals(List.of("ok.kv"), names(dir));
    }

    @Test
    void wrongWidthUnderAPromisedWidthPoisons(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("s.kv");
        // Promised 3 under OPTIONAL: a present value of 2 bytes fits, a tombstone (1 byte) does not.
        NativeWriter w = new NativeWriter(target, OPTIONAL, CommonWidthRule.promised(3));
        w.put(bytes("a"), bytes("xy"));
        assertThrows(IllegalArgumentException.class, () -> w.delete(bytes("b")));
        assertPoisoned(w, dir, target);

        NativeWriter raw = new NativeWriter(target, RAW, CommonWidthRule.promised(3));
        assertThrows(IllegalArgumentException.class, () -> raw.put(MemorySegment.ofArray(bytes("a")), MemorySegment.ofArray(bytes("wxyz"))));
        assertPoisoned(raw, dir, target);
    }

    @Test
    void aPromiseContradictingTheFixedPolicyIsRefusedUpFront(@TempDir Path dir) {
        assertThrows(IllegalArgumentException.class,
                () -> new NativeWriter(dir.resolve("s.kv"), RAW.withValueWidth(ValueWidth.fixed(4)), CommonWidthRule.promised(3)));
        assertEquals(List.of(), names(dir));
    }

    /** Bit-unit writers (KV02 bit and KV03) refuse and poison exactly as the byte writer does. */
    @Test
    void bitUnitWritersRefuseAndPoisonAlike(@TempDir Path dir) throws IOException {
        Policy kv03 = Policy.stringPolicy();
        Policy kv02 = kv03.withFormat(SegmentFormat.KV02).withBackspace(BackspaceCode.golomb(3));
        for (Policy p : List.of(kv03, kv02)) {
            Path target = dir.resolve("s.kv");
            NativeWriter unsorted = new NativeWriter(target, p, CommonWidthRule.policy());
            unsorted.put(bytes("apple"), bytes("1"));
            unsorted.put(bytes("banana"), bytes("2"));
            assertMentionsHex(assertThrows(KeyOrderException.class, () -> unsorted.put(bytes("apricot"), bytes("3"))), "banana", "apricot");
            assertPoisoned(unsorted, dir, target);

            NativeWriter duplicate = new NativeWriter(target, p, CommonWidthRule.policy());
            duplicate.delete(bytes("a"));
            assertThrows(KeyOrderException.class, () -> duplicate.put(MemorySegment.ofArray(bytes("a")), MemorySegment.ofArray(bytes("x"))));
            assertPoisoned(duplicate, dir, target);

            NativeWriter raw = new NativeWriter(target, p.withGrammar(ValueGrammar.RAW), CommonWidthRule.policy());
            raw.put(bytes("a"), bytes("1"));
            assertThrows(IllegalArgumentException.class, () -> raw.delete(bytes("b")));
            assertPoisoned(raw, dir, target);

            // RAW, 32 bits fixed by the policy: KV02 bit stores 4-byte values bare. KV03 cannot
            // declare a width, so it is promised: 4 bytes behind EG0(4) = 00101 (37 bits).
            NativeWriter fixed = p.format() == SegmentFormat.KV03
                    ? new NativeWriter(target, p.withGrammar(ValueGrammar.RAW), CommonWidthRule.promised(37))
                    : new NativeWriter(target, p.withGrammar(ValueGrammar.RAW).withValueWidth(ValueWidth.fixed(32)), CommonWidthRule.policy());
            fixed.put(bytes("a"), bytes("abcd"));
            assertThrows(IllegalArgumentException.class, () -> fixed.put(bytes("b"), bytes("abc")));
            assertPoisoned(fixed, dir, target);

            // Promised 12 bits: "1", EG0(1) = 010 and one byte fit; a tombstone (1 bit) does not.
            NativeWriter promised = new NativeWriter(target, p, CommonWidthRule.promised(12));
            promised.put(bytes("a"), bytes("x"));
            assertThrows(IllegalArgumentException.class, () -> promised.delete(bytes("b")));
            assertPoisoned(promised, dir, target);

            // The merger's encoded path counts bits: a 1-bit key is not whole bytes, and a record
            // that keeps more than the previous key (8 bits) cannot follow; both poison.
            NativeWriter partial = new NativeWriter(target, p, CommonWidthRule.policy());
            assertThrows(IllegalArgumentException.class, () -> partial.appendEncoded(0, MemorySegment.ofArray(bytes("a")), 0, 1,
                    MemorySegment.ofArray(new byte[] {(byte) 0xC0}), 0, 2));
            assertPoisoned(partial, dir, target);

            NativeWriter encoded = new NativeWriter(target, p, CommonWidthRule.policy());
            encoded.appendEncoded(0, MemorySegment.ofArray(bytes("a")), 0, 8, MemorySegment.ofArray(new byte[] {(byte) 0xC0}), 0, 2);
            assertThrows(IllegalArgumentException.class, () -> encoded.appendEncoded(9, MemorySegment.ofArray(bytes("b")), 0, 8,
                    MemorySegment.ofArray(new byte[] {(byte) 0xC0}), 0, 2));
            assertPoisoned(encoded, dir, target);
        }
    }

    /** Everett's string codecs have no fixed width: a KV03 policy that declares one is refused when it is made. */
    @Test
    void kv03PoliciesRefuseAFixedWidth() {
        for (long width : new long[] {0, 1, 37, 71}) {
            var e = assertThrows(IllegalArgumentException.class, () -> Policy.stringPolicy().withValueWidth(ValueWidth.fixed(width)));
            assertTrue(e.getMessage().contains("KV03") && e.getMessage().contains("fixed value width"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> new Policy(dev.everett.api.Unit.BIT, 15, 15, ValueWidth.fixed(width),
                    dev.everett.api.BackspaceCode.expGolomb(0), ValueGrammar.RAW, SegmentFormat.KV03));
        }
        // The same width is fine for KV02 in bits, and KV03 takes a variable width.
        assertEquals(71, Policy.stringPolicy().withFormat(SegmentFormat.KV02).withValueWidth(ValueWidth.fixed(71)).valueWidth().units());
        assertEquals(ValueWidth.variable(), Policy.stringPolicy().valueWidth());
    }

    @Test
    void tombstoneUnderRawGrammarPoisons(@TempDir Path dir) throws IOException {
        NativeWriter w = writer(dir, RAW);
        w.put(bytes("a"), bytes("1"));
        assertThrows(IllegalArgumentException.class, () -> w.delete(bytes("b")));
        assertPoisoned(w, dir);

        NativeWriter viaSegment = writer(dir, RAW);
        assertThrows(IllegalArgumentException.class, () -> viaSegment.delete(MemorySegment.ofArray(bytes("a"))));
        assertPoisoned(viaSegment, dir);
    }

    @Test
    void finishTwiceAndWritingAfterFinishAreRefused(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("s.kv");
        byte[] published;
        try (NativeWriter w = new NativeWriter(target, OPTIONAL, CommonWidthRule.policy())) {
            w.put(bytes("a"), bytes("1"));
            w.finish();
            published = Files.readAllBytes(target);
            assertThrows(IllegalStateException.class, w::finish);
            assertThrows(IllegalStateException.class, () -> w.put(bytes("b"), bytes("2")));
            assertThrows(IllegalStateException.class, () -> w.delete(bytes("b")));
            assertThrows(IllegalStateException.class, () -> w.put(MemorySegment.ofArray(bytes("b")), MemorySegment.ofArray(bytes("2"))));
            assertEquals(1, w.recordCount());
        }
        // close() after finish() leaves the published file as it was.
        assertArrayEquals(published, Files.readAllBytes(target));
        assertEquals(List.of("s.kv"), names(dir));
        try (NativeReader r = SegmentFixtures.open(target, OPTIONAL)) {
            assertEquals(List.of(Rec.of("a", "1")), SegmentFixtures.walk(r));
            r.verify();
        }
    }

    @Test
    void closeWithoutFinishPublishesNothing(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("s.kv");
        NativeWriter w = new NativeWriter(target, OPTIONAL, CommonWidthRule.policy());
        w.put(bytes("a"), bytes("1"));
        assertEquals(1, names(dir).size(), "the temporary file exists while writing");
        w.close();
        assertEquals(List.of(), names(dir));
        assertDoesNotThrow(w::close, "close is idempotent");
        assertThrows(IllegalStateException.class, w::finish);
        assertThrows(IllegalStateException.class, () -> w.put(bytes("b"), bytes("2")));
        assertEquals(List.of(), names(dir));
    }

    /** An older file at the target stays untouched until finish() replaces it in one step. */
    @Test
    void anExistingTargetIsReplacedOnlyByFinish(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("s.kv");
        Files.write(target, bytes("old"));

        NativeWriter abandoned = new NativeWriter(target, OPTIONAL, CommonWidthRule.policy());
        abandoned.put(bytes("a"), bytes("1"));
        abandoned.close();
        assertArrayEquals(bytes("old"), Files.readAllBytes(target));

        NativeWriter refused = new NativeWriter(target, OPTIONAL, CommonWidthRule.policy());
        refused.put(bytes("b"), bytes("1"));
        assertThrows(KeyOrderException.class, () -> refused.put(bytes("a"), bytes("1")));
        refused.close();
        assertArrayEquals(bytes("old"), Files.readAllBytes(target));
        assertEquals(List.of("s.kv"), names(dir));

        SegmentFixtures.write(target, OPTIONAL, List.of(Rec.of("a", "1")));
        try (NativeReader r = SegmentFixtures.open(target, OPTIONAL)) {
            assertEquals(List.of(Rec.of("a", "1")), SegmentFixtures.walk(r));
        }
        assertEquals(List.of("s.kv"), names(dir));
    }

    /** After finish the directory holds the target alone, including when "infer" rewrote the payload. */
    @Test
    void finishLeavesOnlyTheTarget(@TempDir Path dir) throws IOException {
        List<Rec> uniform = List.of(Rec.of("a", "xy"), Rec.of("b", "zw"), Rec.of("c", "uv"));
        List<Rec> mixed = List.of(Rec.of("a", "x"), Rec.of("b", null), Rec.of("c", "uvw"));
        for (CommonWidthRule rule : List.of(CommonWidthRule.policy(), CommonWidthRule.infer(), CommonWidthRule.promised(3))) {
            for (List<Rec> records : rule.kind() == CommonWidthRule.Kind.PROMISED ? List.of(uniform) : List.of(uniform, mixed)) {
                Path target = dir.resolve("s.kv");
                SegmentFixtures.write(target, OPTIONAL, rule, records);
                assertEquals(List.of("s.kv"), names(dir), rule + " " + records);
                Files.delete(target);
            }
        }
        Path empty = dir.resolve("empty.kv");
        SegmentFixtures.write(empty, OPTIONAL, CommonWidthRule.infer(), List.of());
        assertEquals(List.of("empty.kv"), names(dir));
    }

    // ----------------------------------------------------------------------------------------

    /** A poisoned writer refuses everything and, once closed, leaves the directory as it found it. */
    /**
     * The key-order error {@code bad} raises in an optional-grammar writer given {@code keys}
     * first (values "1", "2", …), after checking that it poisoned the writer.
     */
    private static KeyOrderException refusedAfter(Path dir, ThrowingConsumer<NativeWriter> bad, String... keys) throws IOException {
        NativeWriter w = writer(dir, OPTIONAL);
        for (int i = 0; i < keys.length; i++) {
            w.put(bytes(keys[i]), bytes(Integer.toString(i + 1)));
        }
        KeyOrderException e = assertThrows(KeyOrderException.class, () -> bad.accept(w));
        assertPoisoned(w, dir);
        return e;
    }

    /** A writer of {@code p} to {@code dir/s.kv}. */
    private static NativeWriter writer(Path dir, Policy p) throws IOException {
        return new NativeWriter(dir.resolve("s.kv"), p, CommonWidthRule.policy());
    }

    private static void assertPoisoned(NativeWriter w, Path dir) throws IOException {
        assertPoisoned(w, dir, dir.resolve("s.kv"));
    }

    private static void assertPoisoned(NativeWriter w, Path dir, Path target) throws IOException {
        long count = w.recordCount();
        assertThrows(IllegalStateException.class, () -> w.put(bytes("zz"), bytes("1")));
        assertThrows(IllegalStateException.class, () -> w.delete(bytes("zz")));
        assertThrows(IllegalStateException.class, () -> w.put(MemorySegment.ofArray(bytes("zz")), MemorySegment.ofArray(bytes("1"))));
        assertThrows(IllegalStateException.class, w::finish);
        assertEquals(count, w.recordCount(), "a poisoned writer accepts no records");
        assertTrue(Files.notExists(target), "nothing published at the target");
        w.close();
        assertEquals(List.of(), names(dir), "no target and no temporary file after close");
    }

    private static void assertMentionsHex(Exception e, String previous, String offending) {
        String message = e.getMessage();
        HexFormat hex = HexFormat.of();
        assertTrue(message.contains("0x" + hex.formatHex(bytes(previous))), "previous key in hex: " + message);
        assertTrue(message.contains("0x" + hex.formatHex(bytes(offending))), "offending key in hex: " + message);
    }

    private static List<String> names(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static byte[] bytes(String s) {
        return Rec.bytes(s);
    }
}
