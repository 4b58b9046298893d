package dev.everett.segment.natives;

import dev.everett.segment.fc.FullScan;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.io.Envelope;
import java.lang.foreign.MemorySegment;
import java.util.zip.CRC32C;

/**
 * A native's body CRC taken just behind a walk that reads every record once (a merge input,
 * {@code EncodedRecords.checkedAsRead}). Each {@link #catchUp} adds the bytes the walk has passed
 * since the last one: it has just read them, so they are still in the processor's cache, and the
 * check costs the CRC arithmetic (tens of GB/s from cache) instead of a pass of its own over the
 * file (bound by memory bandwidth, about 13 GB/s on the machines measured; docs/benchmarks/
 * compaction.md, "The inputs' CRC behind the merge"). {@link #finish()} adds the rest of the body
 * and compares: until it has passed, nothing read through the walk is more than framing-checked.
 */
public final class BodyCrcTrail {
    private final MemorySegment file;
    private final Envelope envelope;
    private final Corruption corruption;
    private final Runnable passed;
    private final CRC32C crc = new CRC32C();
    /** File offset up to which the CRC has been taken. */
    private long taken = Envelope.BYTES;
    private boolean held;
    /** The mismatch found, thrown again by every later {@link #finish()}. */
    private RuntimeException failed;

    BodyCrcTrail(MemorySegment file, Envelope envelope, Corruption corruption, Runnable passed) {
        this.file = file;
        this.envelope = envelope;
        this.corruption = corruption;
        this.passed = passed;
    }

    /** Adds the body bytes before file offset {@code to} not yet taken (none if the trail is there already). */
    public void catchUp(long to) {
        long end = Math.min(to, file.byteSize());
        if (end > taken) {
            FullScan.crcOf(file, taken, end, crc);
            taken = end;
        }
    }

    /**
     * Adds the rest of the body and compares the CRC with the stored one; does nothing once it has
     * passed.
     *
     * @throws dev.everett.api.CorruptSegmentException naming the file, if the body is not what
     *         its writer published (the same exception again on every later call)
     */
    public void finish() {
        if (held) {
            return;
        }
        if (failed != null) {
            throw failed;
        }
        catchUp(file.byteSize());
        try {
            FullScan.requireBodyCrc(crc.getValue(), envelope, corruption);
        } catch (RuntimeException mismatch) {
            failed = mismatch;
            throw mismatch;
        }
        held = true;
        passed.run();
    }
}
