package dev.everett.compaction;

import dev.everett.api.CatalogRef;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.ObjectId;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The serialisation of {@link SegmentMeta}: magic {@code EVSM} (4 bytes, big-endian), version
 * (1 byte), the segment id and the head's native and index ids (16 bytes each), five unsigned
 * LEB128 counts (records, tombstones, native, index and filter bytes), the smallest key, largest
 * key and host blob each as a LEB128 length and its bytes, and a CRC32C (4 bytes, big-endian)
 * of everything before it.
 */
final class MetaCodec {
    private MetaCodec() {
    }

    static byte[] encode(SegmentMeta m) {
        Bytes out = new Bytes();
        out.u32(SegmentMeta.MAGIC);
        out.u8(SegmentMeta.VERSION);
        out.id(m.id());
        out.id(m.head().nativeId());
        out.id(m.head().indexId());
        out.varint(m.records());
        out.varint(m.tombstones());
        out.varint(m.nativeBytes());
        out.varint(m.indexBytes());
        out.varint(m.filterBytes());
        out.bytes(m.smallestKeyView());
        out.bytes(m.largestKeyView());
        out.bytes(m.hostBlob());
        return out.sealed();
    }

    static SegmentMeta decode(byte[] b, int off, int len, Path file, long fileOffset) {
        Reader in = new Reader(b, off, len, file, fileOffset);
        in.checkCrc("segment metadata");
        in.require(in.u32() == SegmentMeta.MAGIC, 0, "segment metadata magic is not EVSM");
        in.require(in.u8() == SegmentMeta.VERSION, 4, "segment metadata version is not " + SegmentMeta.VERSION);
        ObjectId id = in.id();
        CatalogRef head = new CatalogRef(in.id(), in.id());
        long records = in.varint();
        long tombstones = in.varint();
        long nativeBytes = in.varint();
        long indexBytes = in.varint();
        long filterBytes = in.varint();
        byte[] smallest = in.bytes();
        byte[] largest = in.bytes();
        byte[] blob = in.bytes();
        in.requireEnd("segment metadata");
        try {
            return new SegmentMeta(id, head, smallest, largest, records, tombstones, nativeBytes, indexBytes, filterBytes, blob);
        } catch (IllegalArgumentException e) {
            throw new CorruptSegmentException(file, fileOffset, "segment metadata describes an impossible segment: " + e.getMessage());
        }
    }

    /** A growing byte buffer with the encodings used by metadata and manifest records. */
    static final class Bytes {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream(128);

        void u8(int v) {
            out.write(v);
        }

        void u32(int v) {
            out.write(v >>> 24);
            out.write(v >>> 16);
            out.write(v >>> 8);
            out.write(v);
        }

        void u64(long v) {
            u32((int) (v >>> 32));
            u32((int) v);
        }

        void varint(long v) {
            if (v < 0) {
                throw new IllegalArgumentException("negative count " + v);
            }
            while ((v & ~0x7FL) != 0) {
                out.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }

        void id(ObjectId id) {
            u64(id.high());
            u64(id.low());
        }

        void bytes(byte[] b) {
            varint(b.length);
            out.write(b, 0, b.length);
        }

        int size() {
            return out.size();
        }

        byte[] raw() {
            return out.toByteArray();
        }

        /** The bytes followed by their CRC32C. */
        byte[] sealed() {
            byte[] body = out.toByteArray();
            CRC32C crc = new CRC32C();
            crc.update(body);
            u32((int) crc.getValue());
            return out.toByteArray();
        }
    }

    /** Reads {@link Bytes}' encodings from a bounded slice, reporting damage at the file offset where it is found. */
    static final class Reader {
        private final byte[] b;
        private final int start;
        private final int end;
        private final Path file;
        private final long fileOffset;
        private int at;

        Reader(byte[] b, int off, int len, Path file, long fileOffset) {
            if (off < 0 || len < 0 || off + len > b.length) {
                throw new IndexOutOfBoundsException("slice [" + off + ", " + (off + len) + ") of " + b.length + " bytes");
            }
            this.b = b;
            this.start = off;
            this.end = off + len;
            this.file = file;
            this.fileOffset = fileOffset;
            this.at = off;
        }

        /** Checks the trailing CRC32C of the slice and excludes it from what is read. */
        void checkCrc(String what) {
            require(end - start >= 4, 0, what + " is shorter than its checksum");
            CRC32C crc = new CRC32C();
            crc.update(b, start, end - start - 4);
            int stored = ((b[end - 4] & 0xFF) << 24) | ((b[end - 3] & 0xFF) << 16) | ((b[end - 2] & 0xFF) << 8) | (b[end - 1] & 0xFF);
            require((int) crc.getValue() == stored, end - start - 4, what + " checksum mismatch (CRC32C)");
            limit = end - 4;
        }

        private int limit = Integer.MIN_VALUE;

        private int limit() {
            return limit == Integer.MIN_VALUE ? end : limit;
        }

        void require(boolean ok, long relative, String rule) {
            if (!ok) {
                throw new CorruptSegmentException(file, fileOffset + relative, rule);
            }
        }

        private void need(int n, String what) {
            require(limit() - at >= n, at - start, what + " runs past the end of its record");
        }

        int u8() {
            need(1, "a byte");
            return b[at++] & 0xFF;
        }

        int u32() {
            need(4, "a 4-byte field");
            int v = ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
            at += 4;
            return v;
        }

        long u64() {
            long hi = u32() & 0xFFFFFFFFL;
            return (hi << 32) | (u32() & 0xFFFFFFFFL);
        }

        long varint() {
            int from = at;
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                require(shift < 63, from - start, "a count is longer than 9 bytes");
                int x = u8();
                v |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    require(x != 0 || shift == 0, from - start, "a count is not in its shortest form");
                    return v;
                }
            }
        }

        ObjectId id() {
            long h = u64();
            return new ObjectId(h, u64());
        }

        byte[] bytes() {
            int from = at;
            long n = varint();
            require(n <= limit() - at, from - start, "a length of " + n + " runs past the end of its record");
            byte[] out = new byte[(int) n];
            System.arraycopy(b, at, out, 0, (int) n);
            at += (int) n;
            return out;
        }

        boolean atEnd() {
            return at == limit();
        }

        void requireEnd(String what) {
            require(atEnd(), at - start, what + " has " + (limit() - at) + " unread bytes before its checksum");
        }

        /** Offset of the next byte within the slice. */
        int position() {
            return at - start;
        }
    }
}
