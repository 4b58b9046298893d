package dev.everett.segment.io;

import dev.everett.api.BackspaceCode;
import dev.everett.api.Policy;
import dev.everett.api.PolicyMismatchException;
import dev.everett.api.Unit;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The 96-byte object envelope shared by native (.kv) and index files: magic, policy descriptor,
 * extent, record count and two CRC32C checksums. See docs/format.md, "Envelope".
 *
 * @param kind         native or index, from the magic
 * @param flags        bit 0: the policy fixes the value width; bit 1: the file has a common width
 * @param unit         byte or bit
 * @param backspace    backspace code and parameter
 * @param blockWidth   W, a u32 (1…2^32−1)
 * @param groupSize    K
 * @param policyWidth  bytes 32–39 (0 unless flag bit 0)
 * @param commonWidth  bytes 40–47 (0 unless flag bit 1)
 * @param extent       body length in policy units
 * @param recordCount  records (keys) in the stream
 * @param bodyCrc      CRC32C of the body
 */
public record Envelope(Kind kind, int flags, Unit unit, BackspaceCode backspace, long blockWidth, long groupSize,
                long policyWidth, long commonWidth, long extent, long recordCount, int bodyCrc) {

    public static final int BYTES = 96;
    public static final int FLAG_POLICY_WIDTH = 1;
    public static final int FLAG_COMMON_WIDTH = 2;
    static final int VERSION = 1;
    static final int CHECKSUM_CRC32C = 1;
    public static final int HEADER_CRC_OFFSET = 68;
    public static final int BODY_CRC_OFFSET = 64;

    /** The two object kinds and their magic numbers ("EVRT.KV\0", "EVRT.IX\0" as little-endian u64). */
    public enum Kind {
        NATIVE(0x00_56_4B_2E_54_52_56_45L, "native", "EVRT.KV", ".kv"),
        INDEX(0x00_58_49_2E_54_52_56_45L, "index", "EVRT.IX", ".index");

        final long magic;
        /** What the object is called, its magic's text and its file name suffix, for errors. */
        private final String noun;
        private final String magicText;
        private final String suffix;

        Kind(long magic, String noun, String magicText, String suffix) {
            this.magic = magic;
            this.noun = noun;
            this.magicText = magicText;
            this.suffix = suffix;
        }

        private Kind other() {
            return this == NATIVE ? INDEX : NATIVE;
        }

        private String article() {
            return noun.startsWith("i") ? "an " : "a ";
        }
    }

    /** "DIET" in the first four bytes: the pre-Everett spelling, which we refuse by name. */
    private static final int DIET_PREFIX = 0x54_45_49_44;

    public boolean hasPolicyWidth() {
        return (flags & FLAG_POLICY_WIDTH) != 0;
    }

    public boolean hasCommonWidth() {
        return (flags & FLAG_COMMON_WIDTH) != 0;
    }

    /** The common width if recorded, else -1. */
    public long commonWidthOrNone() {
        return hasCommonWidth() ? commonWidth : -1;
    }

    /** Body bytes implied by the extent: whole bytes for both units (bit files store bytes × 8). */
    long bodyBytes() {
        return unit == Unit.BYTE ? extent : LittleEndian.ceilDiv(extent, 8);
    }

    long totalBytes() {
        return BYTES + bodyBytes();
    }

    /** Encodes the header with both checksums; {@code body} is the whole body for the body CRC. */
    public byte[] encode() {
        byte[] h = new byte[BYTES];
        LittleEndian.putU64(h, 0, kind.magic);
        LittleEndian.putU16(h, 8, VERSION);
        LittleEndian.putU16(h, 10, BYTES);
        LittleEndian.putU32(h, 12, flags);
        h[16] = (byte) unit.code();
        h[17] = CHECKSUM_CRC32C;
        h[18] = (byte) backspace.code();
        LittleEndian.putU32(h, 20, blockWidth);
        LittleEndian.putU64(h, 24, groupSize);
        LittleEndian.putU64(h, 32, policyWidth);
        LittleEndian.putU64(h, 40, commonWidth);
        LittleEndian.putU64(h, 48, extent);
        LittleEndian.putU64(h, 56, recordCount);
        LittleEndian.putU32(h, BODY_CRC_OFFSET, Integer.toUnsignedLong(bodyCrc));
        LittleEndian.putU64(h, 72, BYTES);
        LittleEndian.putU64(h, 80, totalBytes());
        LittleEndian.putU64(h, 88, backspace.parameter());
        CRC32C crc = new CRC32C();
        crc.update(h, 0, BYTES);
        LittleEndian.putU32(h, HEADER_CRC_OFFSET, crc.getValue());
        return h;
    }

    /**
     * Reads and checks the envelope (Everett's "checked open"): magic, version, header length,
     * header CRC, flags, unit, checksum kind, backspace descriptor, width fields, size fields and
     * the file's actual size. The body is not read.
     */
    public static Envelope parse(Path file, MemorySegment s) {
        Corruption c = new Corruption(file);
        long size = s.byteSize();
        c.require(size >= BYTES, size, "file shorter than the 96-byte envelope");
        long magic = LittleEndian.u64(s, 0);
        Kind kind = null;
        for (Kind k : Kind.values()) {
            if (k.magic == magic) {
                kind = k;
            }
        }
        if (kind == null) {
            if ((int) magic == DIET_PREFIX) {
                throw c.at(0, "pre-Everett 'DIET' magic is not supported (expected \"EVRT.KV\\0\" or \"EVRT.IX\\0\")");
            }
            throw c.at(0, "bad magic: not an Everett object (expected \"EVRT.KV\\0\" or \"EVRT.IX\\0\")");
        }
        c.require(LittleEndian.u16(s, 8) == VERSION, 8, () -> "envelope version must be 1, found " + LittleEndian.u16(s, 8));
        c.require(LittleEndian.u16(s, 10) == BYTES, 10, () -> "header length must be 96, found " + LittleEndian.u16(s, 10));
        CRC32C crc = new CRC32C();
        crc.update(s.asSlice(0, HEADER_CRC_OFFSET).asByteBuffer());
        crc.update(new byte[4]);
        crc.update(s.asSlice(HEADER_CRC_OFFSET + 4, BYTES - HEADER_CRC_OFFSET - 4).asByteBuffer());
        long storedCrc = LittleEndian.u32(s, HEADER_CRC_OFFSET);
        c.require(crc.getValue() == storedCrc, HEADER_CRC_OFFSET,
                () -> "header CRC32C mismatch: stored " + Long.toHexString(storedCrc) + ", computed " + Long.toHexString(crc.getValue()));
        long flags = LittleEndian.u32(s, 12);
        c.require((flags & ~3L) == 0, 12, () -> "unknown envelope flag bits 0x" + Long.toHexString(flags));
        Unit unit = Unit.ofCode(LittleEndian.u8(s, 16));
        c.require(unit != null, 16, () -> "unit must be 0 (byte) or 1 (bit), found " + LittleEndian.u8(s, 16));
        c.require(LittleEndian.u8(s, 17) == CHECKSUM_CRC32C, 17, () -> "checksum kind must be 1 (CRC32C), found " + LittleEndian.u8(s, 17));
        c.require(LittleEndian.u8(s, 19) == 0, 19, "reserved byte 19 must be 0");
        int code = LittleEndian.u8(s, 18);
        long param = LittleEndian.u64(s, 88);
        c.require(code <= 1, 18, () -> "backspace code must be 0 or 1, found " + code);
        c.require(code != 0 || Long.compareUnsigned(param, 63) <= 0, 88, () -> "exponential-Golomb order must be ≤ 63, found " + Long.toUnsignedString(param));
        c.require(code != 1 || param != 0, 88, "Golomb modulus must be ≥ 1");
        c.require(code != 1 || param > 0, 88, "Golomb modulus beyond 2^63 is not supported");
        c.require(unit != Unit.BYTE || (code == 0 && param == 0), 18, "byte-unit files must record backspace (0, 0)");
        BackspaceCode backspace = new BackspaceCode(code, param);
        long w = LittleEndian.u32(s, 20);
        c.require(w != 0, 20, "block width W must not be 0");
        long k = LittleEndian.u64(s, 24);
        long policyWidth = LittleEndian.u64(s, 32);
        long commonWidth = LittleEndian.u64(s, 40);
        c.require((flags & FLAG_POLICY_WIDTH) != 0 || policyWidth == 0, 32, "policy width must be 0 when flag bit 0 is clear");
        c.require((flags & FLAG_COMMON_WIDTH) != 0 || commonWidth == 0, 40, "common width must be 0 when flag bit 1 is clear");
        // A u64 we cannot hold in a long would surface as a negative width (2^64 − 1 even as -1, "none").
        c.require(commonWidth >= 0, 40, () -> "common value width " + Long.toUnsignedString(commonWidth) + " beyond 2^63 − 1 is not supported");
        long extent = LittleEndian.u64(s, 48);
        long count = LittleEndian.u64(s, 56);
        if (kind == Kind.INDEX) {
            c.require((flags & FLAG_COMMON_WIDTH) != 0 && commonWidth == 0, 12, "index files must record common width present and 0");
        } else {
            c.require((flags & 3) != 3 || policyWidth == commonWidth, 40, "policy width and common width differ");
        }
        long effective = (flags & FLAG_COMMON_WIDTH) != 0 ? commonWidth : policyWidth;
        c.require(effective == 0 || Long.compareUnsigned(count, Long.divideUnsigned(extent, effective)) <= 0, 56,
                "record count exceeds extent / value width");
        c.require(LittleEndian.u64(s, 72) == BYTES, 72, () -> "body offset must be 96, found " + Long.toUnsignedString(LittleEndian.u64(s, 72)));
        long bodyBytes = unit == Unit.BYTE ? extent : (extent >>> 3) + ((extent & 7) == 0 ? 0 : 1);
        c.require(bodyBytes >= 0 && bodyBytes <= Long.MAX_VALUE - BYTES, 48, "extent overflows the file size");
        long total = LittleEndian.u64(s, 80);
        c.require(total == BYTES + bodyBytes, 80, () -> "total size field " + Long.toUnsignedString(total) + " disagrees with the extent (" + (BYTES + bodyBytes) + ")");
        c.require(size == total, Math.min(size, total), () -> size < total ? "file truncated: " + size + " of " + total + " bytes" : "trailing bytes after " + total + " bytes");
        c.require(count >= 0, 56, "record count beyond 2^63 is not supported");
        return new Envelope(kind, (int) flags, unit, backspace, w, k, policyWidth, commonWidth, extent, count,
                (int) LittleEndian.u32(s, BODY_CRC_OFFSET));
    }

    /**
     * Checks that this envelope is of an object of {@code kind} stored under a name of its kind
     * (an index named {@code .kv}, or the reverse, was misfiled), and written under {@code policy}.
     */
    public void requireKind(Path file, Kind kind, Policy policy) {
        Corruption c = new Corruption(file);
        Kind other = kind.other();
        c.require(this.kind == kind, 0, () -> other.article() + other.noun + " object (" + other.magicText + ") is not " + kind.article() + kind.noun
                + (kind == Kind.NATIVE ? " segment" : ""));
        String name = file.getFileName() == null ? "" : file.getFileName().toString();
        c.require(!name.endsWith(other.suffix), 0, () -> kind.noun + " object stored under " + other.article() + other.suffix + " name");
        requirePolicy(file, policy);
    }

    /** Checks that a well-formed envelope was written under {@code policy}. */
    public void requirePolicy(Path file, Policy policy) {
        if (unit != policy.unit()) {
            throw new PolicyMismatchException(file, "unit", policy.unit(), unit);
        }
        if (!backspace.equals(policy.backspace())) {
            throw new PolicyMismatchException(file, "backspace code", policy.backspace(), backspace);
        }
        if (blockWidth != policy.blockWidth()) {
            throw new PolicyMismatchException(file, "block width W", policy.blockWidth(), blockWidth);
        }
        if (groupSize != policy.groupSize()) {
            throw new PolicyMismatchException(file, "group size K", policy.groupSize(), Long.toUnsignedString(groupSize));
        }
        boolean fixed = policy.valueWidth().isFixed();
        if (hasPolicyWidth() != fixed || (fixed && policyWidth != policy.valueWidth().units())) {
            throw new PolicyMismatchException(file, "value width", policy.valueWidth(),
                    hasPolicyWidth() ? "fixed(" + Long.toUnsignedString(policyWidth) + ")" : "variable");
        }
    }
}
