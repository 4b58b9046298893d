package dev.everett.compaction;

import dev.everett.api.CorruptSegmentException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The tree's manifest: {@code MANIFEST-<n>} files of framed edit records and {@code CURRENT},
 * which names the live one. Each record is its payload's length (4 bytes, big-endian), the
 * payload's CRC32C (4 bytes, big-endian) and the payload ({@link Edit}); an edit is durable once
 * its append has been forced. Opening replays the live manifest and then rolls over: a snapshot
 * of the version goes to a fresh manifest, which {@code CURRENT} then names (temporary file,
 * force, atomic rename, force the directory), so appends never follow a torn tail.
 *
 * <p>Replay: a record cut short by the end of the file (a crash during its append) ends the
 * replay at the last complete edit; a complete record whose checksum or content is wrong fails
 * with {@link CorruptManifestException} naming the file and the record's offset, because a
 * committed edit cannot be dropped silently (its segments would then be deleted).
 */
final class Manifest {
    static final String CURRENT = "CURRENT";
    static final String PREFIX = "MANIFEST-";

    private final StorageFiles files;
    private final Path dir;
    private Path file;
    private long number;

    private Manifest(StorageFiles files, Path dir, Path file, long number) {
        this.files = files;
        this.dir = dir;
        this.file = file;
        this.number = number;
    }

    /** What a replay found. */
    record Replayed(Levels levels, long manifestNumber, Path file, boolean tornTail) {
    }

    /** Replays the live manifest of {@code dir}, or an empty version if there is none yet. */
    static Replayed replay(StorageFiles files, Path dir, Layout layout) throws IOException {
        Path current = dir.resolve(CURRENT);
        if (!files.exists(current)) {
            return new Replayed(Levels.empty(layout), 0, null, false);
        }
        byte[] name = files.readAllBytes(current);
        String text = new String(name, StandardCharsets.UTF_8);
        if (!text.endsWith("\n") || !text.startsWith(PREFIX) || text.indexOf('\n') != text.length() - 1) {
            throw new CorruptManifestException(current, 0, "CURRENT must hold one line naming a manifest, got \"" + text.strip() + "\"");
        }
        String manifestName = text.substring(0, text.length() - 1);
        long n;
        try {
            n = Long.parseLong(manifestName.substring(PREFIX.length()));
        } catch (NumberFormatException e) {
            throw new CorruptManifestException(current, 0, "CURRENT names \"" + manifestName + "\", not MANIFEST-<number>");
        }
        Path file = dir.resolve(manifestName);
        byte[] b = files.readAllBytes(file);
        Levels levels = null;
        int at = 0;
        boolean torn = false;
        while (at < b.length) {
            if (b.length - at < 8) {
                torn = true;
                break;
            }
            long length = u32(b, at) & 0xFFFFFFFFL;
            if (length > b.length - at - 8) {
                torn = true;
                break;
            }
            CRC32C crc = new CRC32C();
            crc.update(b, at + 8, (int) length);
            if ((int) crc.getValue() != u32(b, at + 4)) {
                throw new CorruptManifestException(file, at, "edit record checksum mismatch (CRC32C)");
            }
            try {
                Edit e = Edit.decode(b, at + 8, (int) length, file, at + 8);
                if (levels == null) {
                    if (!e.snapshot()) {
                        throw new CorruptManifestException(file, at, "the first record of a manifest must be a snapshot");
                    }
                    if (e.layout() != layout) {
                        throw new IllegalArgumentException(file + " holds a " + e.layout() + " tree, but the options ask for " + layout);
                    }
                    levels = Levels.empty(layout);
                }
                levels = levels.apply(e);
            } catch (CorruptSegmentException e) {
                throw Edit.asManifest(e);
            } catch (IllegalArgumentException e) {
                if (levels == null) {
                    throw e;
                }
                throw new CorruptManifestException(file, at, "edit cannot apply: " + e.getMessage());
            }
            at += 8 + (int) length;
        }
        if (levels == null) {
            // A manifest whose snapshot never completed: CURRENT is switched only after it is
            // forced, so this is damage, not a crash.
            throw new CorruptManifestException(file, 0, "manifest holds no complete snapshot");
        }
        return new Replayed(levels, n, file, torn);
    }

    private static int u32(byte[] b, int at) {
        return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
    }

    static byte[] frame(byte[] payload) {
        CRC32C crc = new CRC32C();
        crc.update(payload);
        byte[] out = new byte[8 + payload.length];
        putU32(out, 0, payload.length);
        putU32(out, 4, (int) crc.getValue());
        System.arraycopy(payload, 0, out, 8, payload.length);
        return out;
    }

    private static void putU32(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    /**
     * Starts manifest {@code number + 1} with {@code snapshot}, makes it live and deletes the
     * previous one. Until CURRENT is renamed the old manifest stays live.
     */
    static Manifest create(StorageFiles files, Path dir, long previousNumber, Path previous, Edit snapshot) throws IOException {
        long n = previousNumber + 1;
        Path file = dir.resolve(String.format("%s%06d", PREFIX, n));
        files.delete(file); // a leftover of an earlier attempt that never became live
        files.writeNew(file, frame(snapshot.encode()));
        Path tmp = dir.resolve(CURRENT + ".tmp");
        files.delete(tmp);
        files.writeNew(tmp, (file.getFileName() + "\n").getBytes(StandardCharsets.UTF_8));
        files.move(tmp, dir.resolve(CURRENT));
        files.forceDirectory(dir);
        if (previous != null && !previous.equals(file)) {
            files.delete(previous);
        }
        return new Manifest(files, dir, file, n);
    }

    /** Appends one edit and forces it: when this returns the edit is durable. */
    void append(Edit e) throws IOException {
        files.append(file, frame(e.encode()));
    }

    Path file() {
        return file;
    }

    long number() {
        return number;
    }

    Path directory() {
        return dir;
    }
}
