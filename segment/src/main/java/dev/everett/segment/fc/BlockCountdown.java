package dev.everett.segment.fc;

/**
 * Says which records of a front-coded stream start a block: the first and every W-th after it.
 * A count down rather than {@code ordinal % W}: W is rarely a power of two (15 by default), and
 * an integer division per record is a measurable part of a writer's or a merge's per-record
 * work. Ask once per record, in order, from the stream's first record.
 */
public final class BlockCountdown {
    private final long width;
    /** Records before the next block start (0: the next record starts one). */
    private long left;

    public BlockCountdown(long width) {
        if (width < 1) {
            throw new IllegalArgumentException("block width must be at least 1, got " + width);
        }
        this.width = width;
    }

    /** True if the next record starts a block. */
    public boolean next() {
        if (left == 0) {
            left = width - 1;
            return true;
        }
        left--;
        return false;
    }
}
