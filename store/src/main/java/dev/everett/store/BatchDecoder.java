package dev.everett.store;

/** Walks a batch's encoded operations (as {@link WriteBatch} writes them and the log stores them). */
final class BatchDecoder {

    /** Receives one operation: its type and where its key and value lie in the data. */
    interface Op {
        void accept(byte type, byte[] data, int keyOff, int keyLen, int valueOff, int valueLen);
    }

    /** A batch that does not decode; {@link #at} is the offset within the batch's data. */
    static final class Malformed extends Exception {
        final int at;

        Malformed(int at, String rule) {
            super(rule, null, false, false);
            this.at = at;
        }
    }

    private BatchDecoder() {
    }

    /** Calls {@code op} for each of the {@code count} operations in {@code data[off, off+len)}; the data must hold exactly those. */
    static void forEach(byte[] data, int off, int len, int count, Op op) throws Malformed {
        int limit = off + len;
        int pos = off;
        for (int i = 0; i < count; i++) {
            if (pos >= limit) {
                throw new Malformed(pos - off, "batch says " + count + " operations but its data ends after " + i);
            }
            byte type = data[pos++];
            if (type != WriteBatch.PUT && type != WriteBatch.DELETE && type != WriteBatch.SINGLE_DELETE) {
                throw new Malformed(pos - 1 - off, "operation " + i + " has unknown type 0x" + Integer.toHexString(type & 0xFF));
            }
            long k = Varint.get(data, pos, limit);
            if (k < 0 || (int) k > limit - (int) (k >>> 32)) {
                throw new Malformed(pos - off, "operation " + i + " has a malformed or overlong key length");
            }
            int keyLen = (int) k;
            int keyOff = (int) (k >>> 32);
            pos = keyOff + keyLen;
            int valueOff = -1;
            int valueLen = -1;
            if (type == WriteBatch.PUT) {
                long v = Varint.get(data, pos, limit);
                if (v < 0 || (int) v > limit - (int) (v >>> 32)) {
                    throw new Malformed(pos - off, "operation " + i + " has a malformed or overlong value length");
                }
                valueLen = (int) v;
                valueOff = (int) (v >>> 32);
                pos = valueOff + valueLen;
            }
            op.accept(type, data, keyOff, keyLen, valueOff, valueLen);
        }
        if (pos != limit) {
            throw new Malformed(pos - off, (limit - pos) + " bytes follow the batch's " + count + " operations");
        }
    }
}
