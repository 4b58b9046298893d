package dev.everett.integration;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The process the crash test kills. It opens a store, prints {@code R}, then runs writer threads
 * forever, printing {@code I t i} before issuing write {@code i} of writer {@code t} and
 * {@code A t i} once it returns; a maintenance thread flushes and compacts now and then and, after
 * each flush returns, prints {@code D t n} for every writer (its first {@code n} writes were
 * acknowledged before the flush started, so they are in segments). Each line is one unbuffered
 * write to the pipe, so whatever the child printed before SIGKILL reaches the parent.
 *
 * <p>Arguments: system, directory, seed, mode (sync, unsynced, nowal), then one start index per
 * writer. With {@code -D}{@value #POINT_PROPERTY}{@code =<label>:<skip>} the store runs on
 * {@link InterposedFiles} and the child stops at that {@link KillPoint} (after letting {@code skip}
 * matches pass), printing {@code K <label>} for the parent to kill it there.
 */
public final class CrashChild {
    private CrashChild() {}

    static final String POINT_PROPERTY = "everett.crash.point";

    private static final FileOutputStream OUT = new FileOutputStream(FileDescriptor.out);

    private static void say(String line) {
        byte[] b = (line + "\n").getBytes(StandardCharsets.US_ASCII);
        synchronized (OUT) {
            try {
                OUT.write(b);
            } catch (IOException e) {
                // The parent went away: nothing left to tell.
                Runtime.getRuntime().halt(3);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String system = args[0];
        Path dir = Path.of(args[1]);
        long seed = Long.parseLong(args[2]);
        CrashMode mode = CrashMode.valueOf(args[3]);
        int writers = args.length - 4;
        AtomicLongArray acked = new AtomicLongArray(writers);
        String aim = System.getProperty(POINT_PROPERTY, "");
        if (!aim.isEmpty()) {
            int colon = aim.lastIndexOf(':');
            KillPoint point = KillPoint.of(aim.substring(0, colon));
            dir = InterposedFiles.path(dir, point.hooks(Integer.parseInt(aim.substring(colon + 1)), p -> say("K " + p.label)));
        }
        Kv kv = Systems.openDurable(system, dir, mode);
        Thread.currentThread().setName(KillPoint.MAINTENANCE);
        for (int t = 0; t < writers; t++) {
            acked.set(t, Long.parseLong(args[4 + t]));
        }
        say("R");
        for (int t = 0; t < writers; t++) {
            int writer = t;
            Thread w = new Thread(() -> {
                try {
                    for (long i = acked.get(writer); ; i++) {
                        var write = CrashWorkload.write(seed, writer, i);
                        say("I " + writer + " " + i);
                        if (write.size() == 1) {
                            switch (write.getFirst()) {
                                case Op.Put p -> kv.put(p.key(), p.value());
                                case Op.Delete d -> kv.delete(d.key());
                                case Op.SingleDelete s -> kv.singleDelete(s.key());
                            }
                        } else {
                            kv.write(write);
                        }
                        acked.set(writer, i + 1);
                        say("A " + writer + " " + i);
                    }
                } catch (Throwable e) {
                    say("E " + writer + " " + e);
                    e.printStackTrace();
                    Runtime.getRuntime().halt(2);
                }
            }, "writer-" + t);
            w.start();
        }
        Random r = new Random(seed ^ System.nanoTime());
        while (true) {
            Thread.sleep(5 + r.nextInt(40));
            int c = r.nextInt(10);
            if (c < 4) {
                long[] before = new long[writers];
                for (int t = 0; t < writers; t++) {
                    before[t] = acked.get(t);
                }
                kv.flush();
                for (int t = 0; t < writers; t++) {
                    say("D " + t + " " + before[t]);
                }
            } else if (c == 4) {
                kv.compactAll();
            }
        }
    }
}
