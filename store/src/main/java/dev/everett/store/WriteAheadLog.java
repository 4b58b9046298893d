package dev.everett.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * One write-ahead log file ({@code NNNNNN.log}): a 16-byte header (magic {@code EVWAL001}, the
 * log's number, little-endian) and then one record per committed batch:
 *
 * <pre>
 *   u32 payload length   (little-endian, ≥ 12)
 *   u32 CRC32C of the payload
 *   payload: u64 first sequence number, u32 operation count, the batch's encoded operations
 * </pre>
 *
 * A commit group's records go out in one append, then one force if any writer asked for sync.
 * Only the commit leader appends, so the log needs no lock of its own. The group is assembled in
 * a direct buffer and copied from there into the file, which on the real file system is a
 * {@link MappedAppendFile}: an append is a copy into the page cache with no system call, and the
 * file ends in zeros (room taken ahead) until it is closed.
 */
final class WriteAheadLog implements Closeable {

    static final byte[] MAGIC = {'E', 'V', 'W', 'A', 'L', '0', '0', '1'};
    static final int HEADER_BYTES = 16;
    static final int RECORD_HEADER_BYTES = 8;
    static final int PAYLOAD_PREFIX_BYTES = 12;

    private final Path path;
    private final long number;
    private final StoreFiles.AppendFile file;
    private ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private long bytesWritten;

    private WriteAheadLog(Path path, long number, StoreFiles.AppendFile file) {
        this.path = path;
        this.number = number;
        this.file = file;
    }

    /** Creates log {@code number} in {@code dir}, header forced to disk. */
    static WriteAheadLog create(StoreFiles files, Path dir, long number) throws IOException {
        Path path = dir.resolve(fileName(number));
        StoreFiles.AppendFile f = files.create(path);
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        header.put(MAGIC).putLong(number).flip();
        try {
            f.append(header);
            f.force();
        } catch (IOException e) {
            f.close();
            throw e;
        }
        WriteAheadLog log = new WriteAheadLog(path, number, f);
        log.bytesWritten = HEADER_BYTES;
        return log;
    }

    static String fileName(long number) {
        return String.format("%06d.log", number);
    }

    /** The log number in a file name of the form {@code NNNNNN.log}, or -1 for any other name. */
    static long numberOf(Path file) {
        String name = file.getFileName().toString();
        if (!name.endsWith(".log") || name.length() < 5) {
            return -1;
        }
        String digits = name.substring(0, name.length() - 4);
        if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit) || digits.length() > 18) {
            return -1;
        }
        return Long.parseLong(digits);
    }

    Path path() {
        return path;
    }

    long number() {
        return number;
    }

    long bytesWritten() {
        return bytesWritten;
    }

    /** Starts a group: records added next go out together in {@link #writeGroup}. */
    void beginGroup() {
        buffer.clear();
    }

    /** Adds one batch's record to the current group. */
    void addRecord(long firstSeq, int count, byte[] data, int size) {
        int payload = PAYLOAD_PREFIX_BYTES + size;
        ensure(RECORD_HEADER_BYTES + payload);
        int start = buffer.position();
        buffer.putInt(payload).putInt(0).putLong(firstSeq).putInt(count).put(data, 0, size);
        // Checksum the payload in place: limit and position bound it (a slice would be an object per record).
        int end = buffer.position();
        buffer.limit(end).position(start + RECORD_HEADER_BYTES);
        crc.reset();
        crc.update(buffer);
        buffer.limit(buffer.capacity());
        buffer.putInt(start + 4, (int) crc.getValue());
    }

    /** Appends the group's records, then forces them if {@code sync}. */
    void writeGroup(boolean sync) throws IOException {
        buffer.flip();
        int n = buffer.remaining();
        if (n > 0) {
            file.append(buffer);
            bytesWritten += n;
        }
        if (sync) {
            file.force();
        }
        if (buffer.capacity() > (4 << 20)) {
            buffer = ByteBuffer.allocateDirect(1 << 16).order(ByteOrder.LITTLE_ENDIAN); // do not keep one huge batch's buffer
        }
    }

    void force() throws IOException {
        file.force();
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    private void ensure(int more) {
        if (buffer.remaining() < more) {
            long need = (long) buffer.position() + more;
            if (need > Integer.MAX_VALUE - 16) {
                throw new IllegalArgumentException("commit group exceeds 2 GiB");
            }
            ByteBuffer bigger = ByteBuffer.allocateDirect((int) Math.max(need, Math.min(Integer.MAX_VALUE - 16L, 2L * buffer.capacity())))
                    .order(ByteOrder.LITTLE_ENDIAN);
            buffer.flip();
            bigger.put(buffer);
            buffer = bigger;
        }
    }
}
