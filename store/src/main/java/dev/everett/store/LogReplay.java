package dev.everett.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Reads a write-ahead log back at open. Intact records are handed to a sink in order. A record
 * that is cut short or fails its checksum ends the replay as a torn tail (the write in flight at a
 * crash) only if no intact record follows it; if one does, acknowledged writes would be lost, so
 * the log is refused as corrupt instead.
 */
final class LogReplay {

    /** Receives one intact record's batch; may throw {@link BatchDecoder.Malformed} if its operations do not decode. */
    interface Sink {
        void batch(long firstSeq, int count, byte[] data, int off, int len) throws BatchDecoder.Malformed;
    }

    /**
     * What a replay found.
     *
     * @param file         the log
     * @param batches      intact records replayed
     * @param lastSeq      the last sequence number replayed (or the one passed in if none)
     * @param validBytes   where the intact part ends
     * @param droppedBytes bytes after it (a torn tail, or zeros), dropped
     * @param zeroTail     whether the dropped bytes are all zeros: the room a mapped log takes
     *                     ahead, not a record cut short (nothing of a record is distinguishable
     *                     there, and an acknowledged record is always whole)
     */
    record Result(Path file, long batches, long lastSeq, long validBytes, long droppedBytes, boolean zeroTail) {
        Result(Path file, long batches, long lastSeq, long validBytes, byte[] b) {
            this(file, batches, lastSeq, validBytes, b.length - validBytes, allZero(b, (int) validBytes));
        }

        private static boolean allZero(byte[] b, int from) {
            for (int i = from; i < b.length; i++) {
                if (b[i] != 0) {
                    return false;
                }
            }
            return from < b.length;
        }
    }

    private LogReplay() {
    }

    static Result replay(StoreFiles files, Path file, long prevSeq, Sink sink) throws IOException {
        byte[] b = files.readAll(file);
        ByteBuffer in = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        long number = WriteAheadLog.numberOf(file);
        if (neverLogged(b, header(number))) {
            // A crash while the header was being written (or, through a mapping, after the file
            // grew by its zeros and before the header was copied in): nothing was ever logged here.
            return new Result(file, 0, prevSeq, 0, b);
        }
        if (b.length < WriteAheadLog.HEADER_BYTES) {
            throw new CorruptFileException(file, 0, "log header is " + b.length + " bytes and not a prefix of its expected header");
        }
        if (!Arrays.equals(b, 0, 8, WriteAheadLog.MAGIC, 0, 8)) {
            throw new CorruptFileException(file, 0, "log magic is not EVWAL001");
        }
        if (in.getLong(8) != number) {
            throw new CorruptFileException(file, 8, "log header names log " + in.getLong(8) + " but the file name says " + number);
        }
        CRC32C crc = new CRC32C();
        long batches = 0;
        int pos = WriteAheadLog.HEADER_BYTES;
        while (pos < b.length) {
            int remaining = b.length - pos;
            int len = remaining < WriteAheadLog.RECORD_HEADER_BYTES ? -1 : in.getInt(pos);
            boolean intact = len >= WriteAheadLog.PAYLOAD_PREFIX_BYTES && len <= remaining - WriteAheadLog.RECORD_HEADER_BYTES
                    && crcOf(crc, b, pos + WriteAheadLog.RECORD_HEADER_BYTES, len) == in.getInt(pos + 4);
            if (!intact) {
                int later = intactRecordAfter(b, in, crc, pos, prevSeq);
                if (later >= 0) {
                    throw new CorruptFileException(file, pos, "record fails its length or CRC32C check while an intact record follows at offset "
                            + later + ": replaying past it would skip acknowledged writes");
                }
                return new Result(file, batches, prevSeq, pos, b);
            }
            int payload = pos + WriteAheadLog.RECORD_HEADER_BYTES;
            long firstSeq = in.getLong(payload);
            int count = in.getInt(payload + 8);
            if (count < 1) {
                throw new CorruptFileException(file, payload + 8, "record holds " + Integer.toUnsignedString(count) + " operations (at least 1 expected)");
            }
            if (firstSeq <= prevSeq || firstSeq + count - 1 < firstSeq) {
                throw new CorruptFileException(file, payload, "record's first sequence number " + firstSeq
                        + " is not above the previous record's last (" + prevSeq + ")");
            }
            int dataOff = payload + WriteAheadLog.PAYLOAD_PREFIX_BYTES;
            try {
                sink.batch(firstSeq, count, b, dataOff, len - WriteAheadLog.PAYLOAD_PREFIX_BYTES);
            } catch (BatchDecoder.Malformed m) {
                throw new CorruptFileException(file, dataOff + m.at, m.getMessage());
            }
            prevSeq = firstSeq + count - 1;
            batches++;
            pos = payload + len;
        }
        return new Result(file, batches, prevSeq, pos, b);
    }

    /** Offset of an intact record (plausible length and sequence, matching CRC) starting after {@code bad}, or -1. */
    private static int intactRecordAfter(byte[] b, ByteBuffer in, CRC32C crc, int bad, long prevSeq) {
        int hdr = WriteAheadLog.RECORD_HEADER_BYTES;
        for (int p = bad + 1; p + hdr + WriteAheadLog.PAYLOAD_PREFIX_BYTES <= b.length; p++) {
            int len = in.getInt(p);
            if (len < WriteAheadLog.PAYLOAD_PREFIX_BYTES || len > b.length - p - hdr) {
                continue;
            }
            long seq = in.getLong(p + hdr);
            if (seq <= prevSeq || seq - prevSeq > (1L << 40)) {
                continue;
            }
            if (crcOf(crc, b, p + hdr, len) == in.getInt(p + 4)) {
                return p;
            }
        }
        return -1;
    }

    private static int crcOf(CRC32C crc, byte[] b, int off, int len) {
        crc.reset();
        crc.update(b, off, len);
        return (int) crc.getValue();
    }

    private static byte[] header(long number) {
        ByteBuffer h = ByteBuffer.allocate(WriteAheadLog.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        h.put(WriteAheadLog.MAGIC).putLong(number);
        return h.array();
    }

    /** Whether {@code b} is an incomplete header (a prefix of {@code expected}) followed by zeros only. */
    private static boolean neverLogged(byte[] b, byte[] expected) {
        int written = Arrays.mismatch(b, 0, Math.min(b.length, expected.length), expected, 0, Math.min(b.length, expected.length));
        if (written < 0) {
            written = Math.min(b.length, expected.length);
        }
        return written < expected.length && allZero(b, written);
    }

    private static boolean allZero(byte[] b, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
