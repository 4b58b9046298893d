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
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
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
        List<String> lines = Files.readAllLines(headFile, StandardCharsets.UTF_8);
        Head head = parseHead(headFile, lines);
        if (head.headerCrc() != d.headerCrc() || head.nativeBytes() != d.fileBytes()) {
            throw CliException.damage(dir + ": stale index chain, built for other bytes than " + d.path()
                    + " (rebuild it with: everett index " + d.path() + ")");
        }
        return head;
    }

    private static Head parseHead(Path file, List<String> lines) {
        if (lines.size() != 6 || !lines.get(0).equals(MAGIC_LINE) || !lines.get(5).startsWith("crc32c ")) {
            throw CliException.damage(file + ": not an index chain HEAD (expected six lines, \"" + MAGIC_LINE + "\" first, \"crc32c\" last)");
        }
        CRC32C crc = new CRC32C();
        crc.update(String.join("\n", lines.subList(0, 5)).concat("\n").getBytes(StandardCharsets.UTF_8));
        String stored = lines.get(5).substring(7);
        if (!stored.equals(HEX.toHexDigits((int) crc.getValue()))) {
            throw CliException.damage(file + ": HEAD checksum mismatch: stored " + stored + ", computed " + HEX.toHexDigits((int) crc.getValue()));
        }
        try {
            ObjectId nativeId = ObjectId.parse(field(lines.get(1), "native"));
            String[] head = field(lines.get(2), "head").split(" ");
            if (head.length != 2) {
                throw new IllegalArgumentException("head needs two identities");
            }
            long headerCrc = Long.parseLong(field(lines.get(3), "native-header-crc"), 16);
            long bytes = Long.parseLong(field(lines.get(4), "native-bytes"));
            return new Head(nativeId, new CatalogRef(ObjectId.parse(head[0]), ObjectId.parse(head[1])), headerCrc, bytes);
        } catch (IllegalArgumentException e) {
            throw CliException.damage(file + ": malformed HEAD: " + e.getMessage());
        }
    }

    private static String field(String line, String name) {
        if (!line.startsWith(name + " ")) {
            throw new IllegalArgumentException("expected \"" + name + " …\", found \"" + line + "\"");
        }
        return line.substring(name.length() + 1);
    }

    private static void writeHead(Path file, Head h) throws IOException {
        String body = MAGIC_LINE + "\n"
                + "native " + h.nativeId().hex() + "\n"
                + "head " + h.head().nativeId().hex() + " " + h.head().indexId().hex() + "\n"
                + "native-header-crc " + HEX.toHexDigits((int) h.headerCrc()) + "\n"
                + "native-bytes " + h.nativeBytes() + "\n";
        CRC32C crc = new CRC32C();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        crc.update(bytes);
        Files.writeString(file, body + "crc32c " + HEX.toHexDigits((int) crc.getValue()) + "\n");
        forceFile(file);
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
