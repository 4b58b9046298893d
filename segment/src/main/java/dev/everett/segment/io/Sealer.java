package dev.everett.segment.io;

import dev.everett.api.Policy;
import dev.everett.segment.fc.KeySamples;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.zip.CRC32C;

/**
 * Completes an object file whose body is written: writes the envelope (with the body CRC the
 * writer streamed and the header CRC) at offset 0 and publishes the file atomically.
 */
public final class Sealer {
    private Sealer() {
    }

    /**
     * @param commonWidth the common value width to record, or -1 for none
     * @param body        the body's CRC32C and length, as streamed by the writer
     * @return the envelope written
     */
    public static Envelope seal(AtomicFile out, Envelope.Kind kind, Policy policy, long commonWidth, long count, BodyCrc body) throws IOException {
        return seal(out, kind, policy, commonWidth, count, body, null);
    }

    /**
     * As {@link #seal(AtomicFile, Envelope.Kind, Policy, long, long, BodyCrc)}, remembering a
     * native's key samples (or null) with the sealed file ({@link WrittenFiles#takeSamples}).
     */
    public static Envelope seal(AtomicFile out, Envelope.Kind kind, Policy policy, long commonWidth, long count, BodyCrc body,
                                KeySamples samples) throws IOException {
        long bodyBytes = body.length();
        boolean fixed = policy.valueWidth().isFixed();
        int flags = (fixed ? Envelope.FLAG_POLICY_WIDTH : 0) | (commonWidth >= 0 ? Envelope.FLAG_COMMON_WIDTH : 0);
        long extent = bodyBytes * (8 / policy.unit().bitsPerUnit());
        Envelope env = new Envelope(kind, flags, policy.unit(), policy.backspace(), policy.blockWidth(), policy.groupSize(),
                fixed ? policy.valueWidth().units() : 0, Math.max(0, commonWidth), extent, count,
                (int) body.crc());
        byte[] encoded = env.encode();
        FileOutput header = new FileOutput(out.channel(), 0);
        header.write(encoded, 0, Envelope.BYTES);
        header.flush();
        out.publish();
        if (kind == Envelope.Kind.NATIVE) {
            WrittenFiles.sealed(out.target(), samples, (int) LittleEndian.u32(MemorySegment.ofArray(encoded), Envelope.HEADER_CRC_OFFSET));
        }
        return env;
    }

    /**
     * A body's CRC32C and length. Writers stream every section after the directory through one
     * {@link FileOutput} and fill the directory last, so the body CRC is the directory's CRC
     * combined with the streamed CRC.
     */
    public record BodyCrc(long crc, long length) {
        public static BodyCrc of(byte[] directory, FileOutput sections, long sectionsStart) throws IOException {
            CRC32C c = new CRC32C();
            c.update(directory);
            long rest = sections.position() - sectionsStart;
            return new BodyCrc(Crc32cCombine.combine(c.getValue(), sections.crc(), rest), directory.length + rest);
        }
    }
}
