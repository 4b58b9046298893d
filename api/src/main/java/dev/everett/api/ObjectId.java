package dev.everett.api;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The opaque 128-bit identity of an Everett object (a native {@code .kv} or an {@code .index}).
 * Its text is 32 lowercase hex digits; stored, it is the 16 bytes those digits spell, in order.
 * Everett never derives identities from content: the writer chooses them.
 *
 * <p>Objects live at {@code ROOT/ab/cd/<remaining 28 hex digits>.kv} (or {@code .index}).
 *
 * @param high the first 8 stored bytes, big-endian
 * @param low  the last 8 stored bytes, big-endian
 */
public record ObjectId(long high, long low) {
    private static final HexFormat HEX = HexFormat.of();
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The all-zero identity, which index directories store for an absent target. */
    public static final ObjectId NONE = new ObjectId(0, 0);

    /** A fresh random identity. */
    public static ObjectId random() {
        return new ObjectId(RANDOM.nextLong(), RANDOM.nextLong());
    }

    /**
     * A fresh random identity whose objects lie in the same directory as {@code near}'s: its
     * first 16 bits (the {@code ab/cd} of {@link #path}) are {@code near}'s, the other 112 are
     * random. A writer that publishes several objects together (a native, its index and its
     * routing heads) names them so, and creates and forces one directory instead of one each.
     */
    public static ObjectId randomBeside(ObjectId near) {
        long prefix = near.high & 0xFFFF_0000_0000_0000L;
        return new ObjectId(prefix | (RANDOM.nextLong() >>> 16), RANDOM.nextLong());
    }

    /**
     * Parses the text {@link #hex()} writes: 32 lowercase hex digits, nothing else, so that an
     * identity has one spelling (its objects' paths and its segment directory are named by it).
     *
     * @throws IllegalArgumentException quoting {@code hex} and naming the first character that is
     *         not a lowercase hex digit, or the length
     */
    public static ObjectId parse(String hex) {
        if (hex.length() != 32) {
            throw new IllegalArgumentException("an object id is 32 lowercase hex digits, got " + hex.length() + " characters: \"" + hex + "\"");
        }
        for (int i = 0; i < 32; i++) {
            char c = hex.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                throw new IllegalArgumentException("an object id is 32 lowercase hex digits, character " + i + " of \"" + hex
                        + "\" is not one (U+" + String.format("%04X", (int) c) + ")");
            }
        }
        return new ObjectId(HexFormat.fromHexDigitsToLong(hex, 0, 16), HexFormat.fromHexDigitsToLong(hex, 16, 32));
    }

    /** The identity stored in {@code bytes[off .. off + 16)}. */
    public static ObjectId fromBytes(byte[] bytes, int off) {
        long h = 0;
        long l = 0;
        for (int i = 0; i < 8; i++) {
            h = (h << 8) | (bytes[off + i] & 0xFF);
            l = (l << 8) | (bytes[off + 8 + i] & 0xFF);
        }
        return new ObjectId(h, l);
    }

    /** Stores the identity into {@code bytes[off .. off + 16)}. */
    public void toBytes(byte[] bytes, int off) {
        for (int i = 0; i < 8; i++) {
            bytes[off + i] = (byte) (high >>> (56 - 8 * i));
            bytes[off + 8 + i] = (byte) (low >>> (56 - 8 * i));
        }
    }

    /** 32 lowercase hex digits. */
    public String hex() {
        return HEX.toHexDigits(high) + HEX.toHexDigits(low);
    }

    /** The object's path under {@code root}: {@code ab/cd/<28 hex><extension>}. */
    public Path path(Path root, String extension) {
        String h = hex();
        return root.resolve(h.substring(0, 2)).resolve(h.substring(2, 4)).resolve(h.substring(4) + extension);
    }

    @Override
    public String toString() {
        return hex();
    }
}
