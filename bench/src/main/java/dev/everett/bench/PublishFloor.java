package dev.everett.bench;

import dev.everett.api.MergeJob;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.merge.NativeMerger;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * What a merge of a {@link MergeFixture} fixture pays on this machine to publish its output,
 * with no merging at all: a file holding exactly the merged output's bytes, written from
 * memory that is already filled, then published as a merge publishes (force the data, rename over
 * the previous output, force the directory). Every round writes a new file and the rename frees
 * the previous one's pages, as one merge after another does in {@link MergeSteps}. The bytes go
 * from a direct buffer in 64 KiB calls (the size the segment writer's buffer grew to until
 * 82a443d, 1 MiB since), so no copy in user space is counted; {@code -Deverett.floor.write=BYTES}
 * sets another call size (the line then names it; 1048576 is the writer's size now). It is a floor for merges that publish the same way, measured in
 * the same time window as they are (this guest's speed varies by spells), not a bound for every
 * way of writing a file. Then two passes that a merge which checksums its output and copies it
 * out of its inputs' mappings makes as well, timed apart: each 64 KiB piece of the output copied
 * into a heap buffer, then that buffer's CRC32C while it is in cache, as the segment writer does.
 * Prints the median of each over the second half of the rounds in ns per output key, beside the
 * output's size (docs/benchmarks/merge.md, "2026-12-07: the floor under the 4 KiB tails").
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -Xms2g -Xmx2g -cp bench/target/benchmarks.jar \
 *     dev.everett.bench.PublishFloor POLICY VARIANT ROUNDS [DIR]</pre>
 */
public final class PublishFloor {
    /** The pieces the passes take and the default publishing call (the writer's buffer until 82a443d). */
    private static final int WRITE = 1 << 16;

    private PublishFloor() {
    }

    /** Median of the second half of the rounds, per output key. */
    private static double perKey(long[] t) {
        return MergeSteps.median(t, t.length / 2) / MergeFixture.N;
    }

    public static void main(String[] args) throws IOException {
        // Read before Run.of writes the fixture, so a bad size leaves no work directory behind.
        String asked = System.getProperty("everett.floor.write", Integer.toString(WRITE));
        int call;
        try {
            call = Integer.parseInt(asked);
        } catch (NumberFormatException e) {
            call = 0;
        }
        if (call < 1) {
            throw new IllegalArgumentException("everett.floor.write must be a whole number of bytes, at least 1, got '" + asked + "'");
        }
        String calls = call == WRITE ? "" : String.format(Locale.ROOT, " in %,d-byte writes", call);
        MergeSteps.Run run = MergeSteps.Run.of("PublishFloor", "byte-fixed8 tail4096 1500", "everett-bench-publish-floor-", args);
        Policy policy = run.policy();
        MergeFixture.Variant variant = run.variant();
        int rounds = run.rounds();
        SegmentEngine engine = run.engine();
        Path work = run.work();
        try {
            // Run.of has written the fixture's two inputs.
            Path merged = work.resolve("merged.kv02");
            try (SegmentReader older = engine.open(run.olderFile(), policy, OpenMode.TYPED);
                 SegmentReader newer = engine.open(run.newerFile(), policy, OpenMode.TYPED);
                 MergeJob job = NativeMerger.of(older, newer).into(merged).start()) {
                while (!job.done()) {
                    job.step(MergeBench.STEP);
                }
                job.finish();
            }
            MergeFixture.check(engine, merged, policy, variant);
            byte[] bytes = Files.readAllBytes(merged);
            ByteBuffer source = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
            Files.delete(merged); // its pages freed, as MergeSteps holds one output at a time
            call = Math.min(call, bytes.length); // one call for the whole output at most, and no int overflow below
            Path temp = work.resolve("floor.tmp");
            Path target = work.resolve("floor.kv02");
            long[] t = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime();
                try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    for (int at = 0; at < bytes.length; at += call) {
                        ByteBuffer piece = source.slice(at, Math.min(call, bytes.length - at));
                        while (piece.hasRemaining()) {
                            out.write(piece);
                        }
                    }
                    out.force(true);
                }
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                try (FileChannel dir = FileChannel.open(work, StandardOpenOption.READ)) {
                    dir.force(true);
                }
                t[r] = System.nanoTime() - t0;
            }
            long[] crc = new long[rounds];
            long[] copy = new long[rounds];
            byte[] into = new byte[WRITE];
            long sink = 0;
            for (int r = 0; r < rounds; r++) {
                // As a writer works: a piece copied into its buffer, then the CRC of the buffer
                // while it is still in cache; the two timed apart.
                CRC32C c = new CRC32C();
                long copying = 0;
                long checksumming = 0;
                for (int at = 0; at < bytes.length; at += WRITE) {
                    int n = Math.min(WRITE, bytes.length - at);
                    long t0 = System.nanoTime();
                    source.get(at, into, 0, n);
                    long t1 = System.nanoTime();
                    c.update(into, 0, n);
                    checksumming += System.nanoTime() - t1;
                    copying += t1 - t0;
                }
                crc[r] = checksumming;
                copy[r] = copying;
                sink += c.getValue();
            }
            System.out.printf(Locale.ROOT, "%s %s, publish floor%s: median ns per key %.1f (output %,d bytes; its CRC32C %.1f, one copy %.1f ns per key)%n",
                    args[0], args[1], calls, perKey(t), bytes.length, perKey(crc), perKey(copy));
            if (sink == 42) {
                System.out.println(); // keeps the passes' results live
            }
        } finally {
            Kv02Data.deleteTree(work);
        }
    }
}
