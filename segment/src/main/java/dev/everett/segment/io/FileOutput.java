package dev.everett.segment.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * A buffered, positioned writer over a file channel: the payload streams through one buffer.
 * It keeps the CRC32C of everything written through it, so a writer can checksum a body as it
 * streams instead of reading the file back.
 */
public final class FileOutput {
    /**
     * The buffer starts small (many outputs write a header or a directory only) and grows to this,
     * RocksDB's largest writable-file buffer too. Each flush is one write call, and the JDK copies
     * a heap buffer into a cached direct one first; on tmpfs a 1 MiB call took the merge of 4 KiB
     * tails 7–17% less time than 64 KiB calls (docs/benchmarks/merge.md, "larger write calls").
     */
    private static final int MAX_BUFFER = 1 << 20;
    /**
     * A held section up to this size joins the target's buffer; a larger one is written on its
     * own. Also the largest buffer of a memory-first output, whose buffer only feeds its held
     * bytes and would otherwise add 1 MiB to them.
     */
    private static final int JOIN_LIMIT = 1 << 16;
    private static final int FIRST_BUFFER = 1 << 12;
    private static final VarHandle BE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong BE64_LAYOUT = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** Null while a memory-first output holds everything in {@link #held}. */
    private FileChannel channel;
    /** Opens the file a memory-first output moves to once it outgrows {@link #heldLimit}. */
    private final Overflow overflow;
    private final int heldLimit;
    private byte[] held;
    private int heldBytes;
    private byte[] buffer = new byte[FIRST_BUFFER];
    private ByteBuffer wrapped = ByteBuffer.wrap(buffer);
    private int used;
    private long flushedTo;
    private final CRC32C crc = new CRC32C();
    private long crcValue;
    private boolean crcCombined;
    private long bytesSinceCombine;

    public FileOutput(FileChannel channel, long position) {
        this.channel = channel;
        this.flushedTo = position;
        this.overflow = null;
        this.heldLimit = 0;
    }

    /** The file a memory-first output moves to, opened only if it is needed. */
    public interface Overflow {
        FileChannel open() throws IOException;
    }

    private FileOutput(int heldLimit, Overflow overflow) {
        this.overflow = overflow;
        this.heldLimit = heldLimit;
        this.held = new byte[0];
    }

    /**
     * An output from position 0 that keeps up to {@code limit} bytes in memory and only past
     * that opens a file ({@code overflow}) and writes everything there: a scratch section that is
     * usually small costs no file.
     */
    public static FileOutput memoryFirst(int limit, Overflow overflow) {
        return new FileOutput(limit, overflow);
    }

    /** The file written, or null while a memory-first output holds everything in memory. */
    public FileChannel channel() {
        return channel;
    }

    /**
     * Appends what a memory-first output holds in memory (it has no file: {@link #channel()} is
     * null) to {@code target}, without checksumming it again.
     */
    public void copyHeldTo(FileOutput target) throws IOException {
        flush();
        if (channel != null) {
            throw new IllegalStateException("the output moved to a file");
        }
        if (heldBytes <= JOIN_LIMIT) {
            // A small section joins the target's buffer: one write call for many sections
            // (an index's are mostly a few kilobytes), at the price of checksumming it again.
            target.write(held, 0, heldBytes);
            return;
        }
        target.flush();
        writeAt(target.channel, ByteBuffer.wrap(held, 0, heldBytes), target.position());
        target.skip(heldBytes, crc());
    }

    /**
     * Moves past {@code n} bytes written to the channel directly (the buffer must be empty),
     * whose CRC32C is {@code crcOfSkipped}.
     */
    public void skip(long n, long crcOfSkipped) throws IOException {
        if (used != 0) {
            throw new IllegalStateException("skip with buffered bytes");
        }
        crcValue = Crc32cCombine.combine(crc(), crcOfSkipped, n);
        crcCombined = true;
        crc.reset();
        bytesSinceCombine = 0;
        flushedTo += n;
    }

    /** CRC32C of every byte written through this output so far (flushes first). */
    public long crc() throws IOException {
        flush();
        return crcCombined ? Crc32cCombine.combine(crcValue, crc.getValue(), bytesSinceCombine) : crc.getValue();
    }

    /** File position of the next byte written. */
    public long position() {
        return flushedTo + used;
    }

    public void writeByte(int b) throws IOException {
        if (used == buffer.length) {
            flushFull();
        }
        buffer[used++] = (byte) b;
    }

    /** Eight bytes, most significant first (a bit writer's full reservoir). */
    public void writeLongBigEndian(long v) throws IOException {
        if (used > buffer.length - 8) {
            flushFull();
        }
        BE64.set(buffer, used, v);
        used += 8;
    }

    /**
     * Writes {@code words} big-endian words of a bit string that runs {@code shift} bits (1 to
     * 63) behind the bytes of {@code src} from {@code at}: word i is {@code pending}'s top
     * {@code shift} bits, then the top bits of the source's word i, whose low {@code shift} bits
     * lead word i + 1. Returns what is left pending (its top {@code shift} bits). The bit writer's
     * long copies at a phase other than the output's; the loop stores straight into the buffer.
     */
    public long writeShiftedWords(MemorySegment src, long at, long words, long pending, int shift) throws IOException {
        while (words > 0) {
            if (used > buffer.length - 8) {
                flushFull();
            }
            int n = (int) Math.min(words, (buffer.length - used) >>> 3);
            byte[] b = buffer;
            int u = used;
            for (int i = 0; i < n; i++) {
                long w = src.get(BE64_LAYOUT, at + 8L * i);
                BE64.set(b, u + 8 * i, pending | (w >>> shift));
                pending = w << (64 - shift);
            }
            used = u + 8 * n;
            at += 8L * n;
            words -= n;
        }
        return pending;
    }

    /** Flushes a full buffer, growing it first if it is still small: this output is a long one. */
    private void flushFull() throws IOException {
        flush();
        int max = overflow == null ? MAX_BUFFER : JOIN_LIMIT; // a memory-first output stays small
        if (buffer.length < max) {
            buffer = new byte[Math.min(max, buffer.length * 4)];
            wrapped = ByteBuffer.wrap(buffer);
        }
    }

    /** Unsigned LEB128, canonical. */
    public void writeVarint(long v) throws IOException {
        if (used > buffer.length - 10) {
            flushFull();
        }
        while ((v & ~0x7FL) != 0) {
            buffer[used++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buffer[used++] = (byte) v;
    }

    public void write(byte[] b, int off, int len) throws IOException {
        if (len > buffer.length - used) {
            flushFull();
            if (len > buffer.length / 2) {
                writeFully(ByteBuffer.wrap(b, off, len));
                return;
            }
        }
        System.arraycopy(b, off, buffer, used, len);
        used += len;
    }

    /** Copies {@code length} bytes of {@code src} from {@code at}. */
    public void write(MemorySegment src, long at, long length) throws IOException {
        if (length <= ShortCopy.MAX && used + ShortCopy.MAX <= buffer.length && at + ShortCopy.MAX <= src.byteSize()) {
            // Short literals and values. The bytes stored past the copy land in the buffer's
            // free part, where the next writes go.
            ShortCopy.words(src, at, buffer, used);
            used += (int) length;
            return;
        }
        // Out of line, so this stays small enough for the JIT to inline into a record writer.
        writeRest(src, at, length);
    }

    /** {@link #write(MemorySegment, long, long)} of a copy that is long or at the end of the source or the buffer. */
    private void writeRest(MemorySegment src, long at, long length) throws IOException {
        if (length <= ShortCopy.MAX && used + length <= buffer.length) {
            // Short copies at the end of the source or the buffer: a plain loop beats the general copy's checks.
            byte[] b = buffer;
            int u = used;
            for (int i = 0; i < length; i++) {
                b[u + i] = src.get(ValueLayout.JAVA_BYTE, at + i);
            }
            used = u + (int) length;
            return;
        }
        while (length > 0) {
            if (used == buffer.length) {
                flushFull();
            }
            int n = (int) Math.min(length, buffer.length - used);
            MemorySegment.copy(src, ValueLayout.JAVA_BYTE, at, buffer, used, n);
            used += n;
            at += n;
            length -= n;
        }
    }

    public void write(long[] words) throws IOException {
        byte[] tmp = new byte[8];
        for (long word : words) {
            LittleEndian.putU64(tmp, 0, word);
            write(tmp, 0, 8);
        }
    }

    public void zeros(long n) throws IOException {
        for (long i = 0; i < n; i++) {
            writeByte(0);
        }
    }

    /**
     * Keeps {@code b} in memory if it fits under the limit; else opens the overflow file and
     * writes what was held there first (false: the caller writes {@code b} after it).
     */
    private boolean hold(ByteBuffer b) throws IOException {
        int n = b.remaining();
        if (heldBytes + n <= heldLimit) {
            if (held.length < heldBytes + n) {
                held = Arrays.copyOf(held, Math.min(heldLimit, Math.max(heldBytes + n, 2 * held.length)));
            }
            b.get(held, heldBytes, n);
            heldBytes += n;
            flushedTo += n;
            return true;
        }
        channel = overflow.open();
        writeAt(channel, ByteBuffer.wrap(held, 0, heldBytes), 0);
        held = null;
        heldBytes = 0;
        return false;
    }

    public void flush() throws IOException {
        wrapped.clear().limit(used);
        writeFully(wrapped);
        used = 0;
    }

    private void writeFully(ByteBuffer b) throws IOException {
        crc.update(b.duplicate());
        bytesSinceCombine += b.remaining();
        if (channel == null && hold(b)) {
            return;
        }
        flushedTo = writeAt(channel, b, flushedTo);
    }

    /** Writes all of {@code b} at {@code at} of {@code ch}; returns the position after it. */
    private static long writeAt(FileChannel ch, ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            at += ch.write(b, at);
        }
        return at;
    }
}
