package dev.everett.api;

import java.lang.foreign.MemorySegment;

/**
 * The answer to a point lookup: the newest record for the key holds a value, or is a
 * tombstone (the key was deleted, and older runs are not consulted), or no run holds the key.
 *
 * @param status what was found
 * @param value  the value bytes when {@code status} is {@link Status#VALUE} (a view of the mapped
 *               file, valid while the segment is open, or a copy for a bit-unit value that does not
 *               start on a byte boundary); empty otherwise
 */
public record Lookup(Status status, MemorySegment value) {
    public enum Status { VALUE, TOMBSTONE, ABSENT }

    private static final Lookup ABSENT = new Lookup(Status.ABSENT, MemorySegment.NULL);
    private static final Lookup TOMBSTONE = new Lookup(Status.TOMBSTONE, MemorySegment.NULL);

    public static Lookup absent() {
        return ABSENT;
    }

    public static Lookup tombstone() {
        return TOMBSTONE;
    }

    public static Lookup value(MemorySegment value) {
        return new Lookup(Status.VALUE, value);
    }

    public boolean found() {
        return status == Status.VALUE;
    }

    /** A copy of the value, or null unless {@link Status#VALUE}. */
    public byte[] valueBytes() {
        return status == Status.VALUE ? SegmentBytes.copy(value) : null;
    }
}
