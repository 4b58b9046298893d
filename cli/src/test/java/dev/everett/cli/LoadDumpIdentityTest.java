package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** load then dump --json is the identity on seeded random record sets, in both formats. */
class LoadDumpIdentityTest {
    @TempDir
    Path dir;

    @Test
    void loadThenDumpIsTheIdentity() throws IOException {
        long seed = Seeds.seed();
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 12; round++) {
            TreeMap<byte[], byte[]> records = new TreeMap<>(Arrays::compareUnsigned);
            int n = round == 0 ? 0 : random.nextInt(round < 6 ? 40 : 3000);
            byte[] prefix = new byte[random.nextInt(24)];
            random.nextBytes(prefix);
            while (records.size() < n) {
                byte[] key = new byte[(random.nextBoolean() ? prefix.length : 0) + random.nextInt(12)];
                random.nextBytes(key);
                if (key.length >= prefix.length && random.nextBoolean()) {
                    System.arraycopy(prefix, 0, key, 0, prefix.length);
                }
                byte[] value = random.nextInt(5) == 0 ? null : new byte[random.nextInt(random.nextBoolean() ? 4 : 300)];
                if (value != null) {
                    random.nextBytes(value);
                }
                records.put(key, value);
            }
            List<String> sorted = new ArrayList<>();
            records.forEach((k, v) -> sorted.add(JsonRecords.format(k, v)));
            List<String> shuffled = new ArrayList<>(sorted);
            Collections.shuffle(shuffled, new java.util.Random(random.nextLong()));
            Path in = dir.resolve("r" + round + ".jsonl");
            Files.write(in, shuffled);
            String format = random.nextBoolean() ? "kv02" : "kv03";
            int w = 1 + random.nextInt(20);
            int k = (1 << (2 + random.nextInt(4))) - 1;
            Path out = dir.resolve("r" + round + ".kv");
            String context = "seed " + seed + " (replay with -Deverett.seed=" + seed + "), round " + round + ", " + format + " W=" + w + " K=" + k;
            Cli.Result load = Cli.run("load", "--format", format, "--w", w, "--k", k, in, out);
            assertEquals(0, load.exit(), context + ": " + load);
            Cli.Result dump = Cli.run("dump", "--json", out);
            assertEquals(0, dump.exit(), context + ": " + dump);
            assertEquals(sorted.isEmpty() ? "" : String.join("\n", sorted) + "\n", dump.out(), context);
            assertEquals(0, Cli.run("verify", out).exit(), context);
        }
    }
}
