package dev.everett.segment;

import java.io.IOException;
import java.util.Arrays;

/**
 * Front-codes a borrowed stream: keys only (the common value width is 0, so no value lengths
 * and no values), non-decreasing, repeats allowed. Byte unit: LEB128 counts and backspaces,
 * retention the exact shared prefix in whole bytes. Records one residual per block start.
 */
final class KeyStreamEncoder {
    private final FileOutput out;
    private final long start;
    private final int blockWidth;
    private final LongList residuals = new LongList();
    private byte[] previous = new byte[64];
    private int previousLength;
    private long count;

    KeyStreamEncoder(FileOutput out, int blockWidth) {
        this.out = out;
        this.start = out.position();
        this.blockWidth = blockWidth;
    }

    /** Appends a key not smaller than the previous one. */
    void append(byte[] key, int length) throws IOException {
        int lcp = 0;
        if (count > 0) {
            int m = Arrays.mismatch(previous, 0, previousLength, key, 0, length);
            lcp = m < 0 ? length : m;
            if (m >= 0 && (m == length || (m < previousLength && Byte.compareUnsigned(key[m], previous[m]) < 0))) {
                throw new IllegalArgumentException("borrowed keys must not decrease (record " + count + ")");
            }
        }
        if (count % blockWidth == 0) {
            residuals.add(out.position() - start);
            out.writeVarint(lcp);
        } else {
            out.writeVarint(previousLength - lcp);
        }
        out.writeVarint(length - lcp);
        out.write(key, lcp, length - lcp);
        if (previous.length < length) {
            previous = Arrays.copyOf(previous, Math.max(length, previous.length * 2));
        }
        System.arraycopy(key, lcp, previous, lcp, length - lcp);
        previousLength = length;
        count++;
    }

    long count() {
        return count;
    }

    long extent() {
        return out.position() - start;
    }

    long terminalLength() {
        return count == 0 ? 0 : previousLength;
    }

    /** The canonical Elias–Fano directory of the block starts plus the final extent. */
    EliasFano directory() {
        LongList r = new LongList();
        for (int i = 0; i < residuals.size(); i++) {
            r.add(residuals.array()[i]);
        }
        r.add(extent());
        return EliasFano.build(r.array(), r.size());
    }
}
