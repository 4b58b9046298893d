package dev.everett.cli;

import dev.everett.api.CatalogRef;
import dev.everett.api.DurableDirectories;
import dev.everett.api.IndexedSegment;
import dev.everett.api.ObjectId;
import dev.everett.api.ObjectStore;
import dev.everett.api.Policy;
import dev.everett.api.SegmentDescription;
import dev.everett.api.SegmentEngine;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The index chain of a single-file segment, kept beside it: for {@code OUT.kv} the directory
 * {@code OUT.kv.chain/}, an Everett object store holding the native under its identity (a hard
 * link to {@code OUT.kv}, or a copy where the file system has no links), its IX03 index and
 * routing catalogs, and a {@code HEAD} file naming the chain's head and the exact native bytes
 * it was built for. {@code HEAD} is text, its last line the CRC32C of the lines before it:
 *
 * <pre>
 * everett-chain 1
 * native 5c1f…            (32 hex digits: the native's identity in the store)
 * head 9a0e… 41b7…        (the head catalog: native and index identities)
 * native-header-crc 1a2b3c4d
 * native-bytes 123456
 * crc32c 0badf00d
 * </pre>
 *
 * A chain whose {@code HEAD} names other bytes than the file beside it is stale and is refused
 * ({@code everett index FILE} rebuilds it). The directory is built under a temporary name and
 * renamed into place, so a crash leaves the old chain, no chain or the new one.
 */
final class IndexChain {
    static final String SUFFIX = ".chain";
    private static final String HEAD = "HEAD";
    private static final String MAGIC_LINE = "everett-chain 1";
    private static final HexFormat HEX = HexFormat.of();

    private IndexChain() {
    }

    /** Where the chain of {@code file} lives. */
    static Path dirFor(Path file) {
        return file.resolveSibling(file.getFileName() + SUFFIX);
    }

    /**
     * What {@code HEAD} records.
     *
     * @param nativeId    the native's identity in the chain's store
     * @param head        the head catalog
     * @param headerCrc   the native's stored header CRC32C
     * @param nativeBytes the native's size
     */
    record Head(ObjectId nativeId, CatalogRef head, long headerCrc, long nativeBytes) {
    }

    /** Builds (or rebuilds) the chain beside a published native file described by {@code d}. */
    static Head build(SegmentEngine engine, SegmentDescription d, Policy policy) throws IOException {
        Path file = d.path();
        Path dir = dirFor(file);
        Path tmp = file.resolveSibling(file.getFileName() + SUFFIX + ".tmp-" + Long.toHexString(System.nanoTime()));
        Head head;
        try (ExitCleanup cleanup = ExitCleanup.of(tmp)) {
            try (ObjectStore store = engine.openObjectStore(tmp, policy)) {
                ObjectId id = ObjectId.random();
                Path inStore = store.nativePath(id);
                try {
                    Files.createLink(inStore, file);
                } catch (UnsupportedOperationException | FileSystemException e) {
                    Files.copy(file, inStore);
                    forceFile(inStore);
                }
                ExitCleanup.pauseForTests();
                IndexedSegment segment = store.indexSegment(id);
                head = new Head(id, segment.head(), d.headerCrc(), d.fileBytes());
            }
            writeHead(tmp.resolve(HEAD), head);
            forceTree(tmp);
            Path old = null;
            if (Files.exists(dir)) {
                old = file.resolveSibling(file.getFileName() + SUFFIX + ".old-" + Long.toHexString(System.nanoTime()));
                Files.move(dir, old, StandardCopyOption.ATOMIC_MOVE);
            }
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
            DurableDirectories.force(dir.toAbsolutePath().getParent());
            if (old != null) {
                deleteTree(old);
            }
        } catch (IOException | RuntimeException e) {
            deleteTree(tmp);
            throw e;
        }
        return head;
    }

    /** The chain's {@code HEAD}, checked against the file it must index; null if there is no chain. */
    static Head read(SegmentDescription d) throws IOException {
        Path dir = dirFor(d.path());
        Path headFile = dir.resolve(HEAD);
        if (!Files.isDirectory(dir)) {
            return null;
        }
        if (!Files.exists(headFile)) {
            throw CliException.damage(headFile + ": missing (the index chain " + dir + " is incomplete; rebuild it with: everett index " + d.path() + ")");
        }
        if (Files.size(headFile) > MAX_HEAD_BYTES) {
            throw CliException.damage(headFile + ": offset " + MAX_HEAD_BYTES + ": an index chain HEAD is at most " + MAX_HEAD_BYTES
                    + " bytes, this file has " + Files.size(headFile) + " (rebuild it with: everett index " + d.path() + ")");
        }
        Head head = parseHead(headFile, Files.readAllBytes(headFile));
        if (head.headerCrc() != d.headerCrc() || head.nativeBytes() != d.fileBytes()) {
            throw CliException.damage(dir + ": stale index chain, built for other bytes than " + d.path()
                    + " (rebuild it with: everett index " + d.path() + ")");
        }
        return head;
    }

    /**
     * Reads {@code HEAD}'s bytes; anything but exactly what {@link #headBytes} writes for some
     * head is refused with a {@link CliException} naming {@code file}, the byte offset and the rule.
     */
    static Head parseHead(Path file, byte[] b) {
        // One char per byte, so an offset in the text is an offset in the file whatever the bytes
        // are (the lines are ASCII; anything else fails a field's parse or the canonical check).
        String text = new String(b, StandardCharsets.ISO_8859_1);
        int[] starts = new int[LINES + 1];
        int at = 0;
        for (int i = 0; i < LINES; i++) {
            starts[i] = at;
            int end = text.indexOf('\n', at);
            if (end < 0) {
                throw malformed(file, at, "not an index chain HEAD: expected " + LINES + " lines, each ending with a line feed, \""
                        + MAGIC_LINE + "\" first, \"crc32c\" last");
            }
            at = end + 1;
        }
        starts[LINES] = at;
        if (at != b.length) {
            throw malformed(file, at, "bytes after the crc32c line");
        }
        if (!line(text, starts, 0).equals(MAGIC_LINE)) {
            throw malformed(file, 0, "not an index chain HEAD: the first line must be \"" + MAGIC_LINE + "\"");
        }
        int crcLine = starts[LINES - 1];
        String stored = field(file, text, starts, LINES - 1, "crc32c");
        CRC32C crc = new CRC32C();
        crc.update(b, 0, crcLine);
        String computed = HEX.toHexDigits((int) crc.getValue());
        if (!stored.equals(computed)) {
            throw malformed(file, crcLine, "HEAD checksum mismatch: stored " + stored + ", computed " + computed);
        }
        Head head;
        String[] ids = field(file, text, starts, 2, "head").split(" ", -1);
        if (ids.length != 2) {
            throw malformed(file, starts[2], "the head line needs two identities");
        }
        try {
            head = new Head(id(file, field(file, text, starts, 1, "native"), starts[1] + "native ".length()),
                    new CatalogRef(id(file, ids[0], starts[2] + "head ".length()), id(file, ids[1], starts[2] + "head ".length() + ids[0].length() + 1)),
                    Long.parseLong(field(file, text, starts, 3, "native-header-crc"), 16),
                    Long.parseLong(field(file, text, starts, 4, "native-bytes")));
        } catch (NumberFormatException e) {
            throw malformed(file, starts[3], "native-header-crc and native-bytes must be numbers: " + e.getMessage());
        }
        if (head.nativeBytes() < 0) {
            throw malformed(file, starts[4], "native-bytes must not be negative");
        }
        byte[] canonical = headBytes(head);
        if (!Arrays.equals(b, canonical)) {
            throw malformed(file, Arrays.mismatch(b, canonical), "a field is not written in its canonical form");
        }
        return head;
    }

    /** The lines {@code HEAD} has: the magic, four fields and the checksum. */
    private static final int LINES = 6;
    /** Far above any {@code HEAD} this code writes; a larger file is not one. */
    private static final int MAX_HEAD_BYTES = 4096;

    private static CliException malformed(Path file, long offset, String rule) {
        return CliException.damage(file + ": offset " + offset + ": " + rule);
    }

    private static String line(String text, int[] starts, int i) {
        return text.substring(starts[i], starts[i + 1] - 1);
    }

    /** The value of line {@code i}, which must be {@code name} and a space before it. */
    private static String field(Path file, String text, int[] starts, int i, String name) {
        String line = line(text, starts, i);
        if (!line.startsWith(name + " ")) {
            throw malformed(file, starts[i], "expected the line \"" + name + " …\"");
        }
        return line.substring(name.length() + 1);
    }

    private static ObjectId id(Path file, String hex, long offset) {
        try {
            return ObjectId.parse(hex);
        } catch (IllegalArgumentException e) {
            throw malformed(file, offset, e.getMessage());
        }
    }

    private static void writeHead(Path file, Head h) throws IOException {
        Files.write(file, headBytes(h));
        forceFile(file);
    }

    /** What {@code HEAD} holds for {@code h}: five lines and the CRC32C of their bytes. */
    static byte[] headBytes(Head h) {
        String body = MAGIC_LINE + "\n"
                + "native " + h.nativeId().hex() + "\n"
                + "head " + h.head().nativeId().hex() + " " + h.head().indexId().hex() + "\n"
                + "native-header-crc " + HEX.toHexDigits((int) h.headerCrc()) + "\n"
                + "native-bytes " + h.nativeBytes() + "\n";
        CRC32C crc = new CRC32C();
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        crc.update(bytes);
        return (body + "crc32c " + HEX.toHexDigits((int) crc.getValue()) + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static void forceFile(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    /** Forces every directory of the tree (the store forces its own files as it publishes them). */
    private static void forceTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.filter(Files::isDirectory).toList()) {
                DurableDirectories.force(p);
            }
        }
    }

    /** Deletes {@code root} and everything under it, if it exists. */
    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
