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
 * <p>{@code CURRENT} is one line, {@code MANIFEST-<number> crc32c=<hex>}, the CRC32C of the name in
 * eight lower-case hex digits, so a damaged {@code CURRENT} is refused naming itself rather than
 * read as another manifest's name.
 *
 * <p>Replay: a record that fails its length or checksum check is a torn tail (the append in flight
 * at a crash) only if no intact record follows it; replay then ends at the last complete edit and
 * reports the torn tail. If an intact record follows, or a record checks out but its content is
 * wrong, replay fails with {@link CorruptManifestException} naming the file and the record's
 * offset, because a committed edit cannot be dropped silently (its segments would then be
 * deleted). Edits lost at a record boundary (a manifest cut short) cannot be seen here; the host
 * can tell from its own files and refuse through a {@link RecoveryCheck}.
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

    /** What a replay found; {@code tornAt} is the offset of the incomplete last record it dropped, or -1. */
    record Replayed(Levels levels, long manifestNumber, Path file, long tornAt) {
        boolean tornTail() {
            return tornAt >= 0;
        }
    }

    /** Replays the live manifest of {@code dir}, or an empty version if there is none yet. */
    static Replayed replay(StorageFiles files, Path dir, Layout layout) throws IOException {
        Path current = dir.resolve(CURRENT);
        if (!files.exists(current)) {
            return new Replayed(Levels.empty(layout), 0, null, -1);
        }
        String manifestName = readCurrent(current, files.readAllBytes(current));
        long n = Long.parseLong(manifestName.substring(PREFIX.length()));
        Path file = dir.resolve(manifestName);
        if (!files.exists(file)) {
            throw new CorruptManifestException(current, 0, "CURRENT names " + manifestName + ", which is missing");
        }
        byte[] b = files.readAllBytes(file);
        Levels levels = null;
        int at = 0;
        long tornAt = -1;
        while (at < b.length) {
            if (!intact(b, at)) {
                // The append in flight at a crash, if nothing intact follows; otherwise a damaged
                // record, and dropping it would drop every committed edit after it.
                int later = intactRecordAfter(b, at);
                if (later >= 0) {
                    throw new CorruptManifestException(file, at, "edit record fails its length or CRC32C check while an intact record follows at offset "
                            + later + ": replaying past it would drop committed edits");
                }
                tornAt = at;
                break;
            }
            int length = u32(b, at);
            try {
                Edit e = Edit.decode(b, at + 8, length, file, at + 8);
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
            at += 8 + length;
        }
        if (levels == null) {
            // A manifest whose snapshot never completed: CURRENT is switched only after it is
            // forced, so this is damage, not a crash.
            throw new CorruptManifestException(file, 0, "manifest holds no complete snapshot");
        }
        return new Replayed(levels, n, file, tornAt);
    }

    /** The manifest name {@code CURRENT} holds, after checking its checksum. */
    static String readCurrent(Path current, byte[] b) {
        String text = new String(b, StandardCharsets.ISO_8859_1);
        int space = text.indexOf(' ');
        if (space < 0 || !text.endsWith("\n") || text.indexOf('\n') != text.length() - 1
                || !text.startsWith(CRC_FIELD, space + 1) || text.length() != space + 1 + CRC_FIELD.length() + 8 + 1) {
            throw new CorruptManifestException(current, 0, "CURRENT must hold one line \"MANIFEST-<number> crc32c=<8 hex digits>\", got \""
                    + text.strip() + "\"");
        }
        String name = text.substring(0, space);
        String stored = text.substring(space + 1 + CRC_FIELD.length(), text.length() - 1);
        String computed = currentCrc(name);
        if (!stored.equals(computed)) {
            throw new CorruptManifestException(current, space + 1 + CRC_FIELD.length(), "CURRENT checksum mismatch (CRC32C of \"" + name
                    + "\" is " + computed + ", CURRENT says " + stored + ")");
        }
        if (!name.startsWith(PREFIX) || !digits(name, PREFIX.length())) {
            throw new CorruptManifestException(current, 0, "CURRENT names \"" + name + "\", not MANIFEST-<number>");
        }
        return name;
    }

    /** The content of {@code CURRENT} naming {@code manifestName}. */
    static byte[] currentFor(String manifestName) {
        return (manifestName + " " + CRC_FIELD + currentCrc(manifestName) + "\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    private static final String CRC_FIELD = "crc32c=";

    private static String currentCrc(String name) {
        CRC32C crc = new CRC32C();
        crc.update(name.getBytes(StandardCharsets.ISO_8859_1));
        return String.format("%08x", crc.getValue());
    }

    private static boolean digits(String s, int from) {
        if (from >= s.length() || s.length() - from > 18) {
            return false;
        }
        for (int i = from; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Whether a whole record with a matching checksum and an edit's tag starts at {@code at}. */
    private static boolean intact(byte[] b, int at) {
        if (b.length - at < 8) {
            return false;
        }
        long length = u32(b, at) & 0xFFFFFFFFL;
        if (length < 2 || length > b.length - at - 8 || b[at + 8] != Edit.TAG) {
            return false;
        }
        CRC32C crc = new CRC32C();
        crc.update(b, at + 8, (int) length);
        return (int) crc.getValue() == u32(b, at + 4);
    }

    /** Offset of an intact record starting after {@code bad}, or -1. */
    private static int intactRecordAfter(byte[] b, int bad) {
        for (int p = bad + 1; p + 8 < b.length; p++) {
            if (intact(b, p)) {
                return p;
            }
        }
        return -1;
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
        files.writeNew(tmp, currentFor(file.getFileName().toString()));
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
