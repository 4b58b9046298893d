package dev.everett.cli;

import dev.everett.api.Policy;
import dev.everett.store.DBOptions;
import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import java.nio.file.Path;

/** EverettDB with the demo's policy and otherwise its defaults (write-ahead log on and unsynced). */
final class EverettDemoStore implements DemoStore {
    private final Path dir;
    private final EverettDB db;

    EverettDemoStore(Path dir, Policy policy) {
        this.dir = dir;
        this.db = EverettDB.open(dir, new DBOptions().setPolicy(policy));
    }

    @Override
    public String name() {
        return "Everett";
    }

    @Override
    public Path directory() {
        return dir;
    }

    @Override
    public void put(byte[] key, byte[] value) {
        db.put(key, value);
    }

    @Override
    public void delete(byte[] key) {
        db.delete(key);
    }

    @Override
    public byte[] get(byte[] key) {
        return db.get(key);
    }

    @Override
    public void flushAndCompact() {
        db.flush();
        db.compactRange();
    }

    @Override
    public Cursor newCursor() {
        EverettIterator it = db.newIterator();
        return new Cursor() {
            @Override
            public void seekToFirst() {
                it.seekToFirst();
            }

            @Override
            public boolean isValid() {
                return it.isValid();
            }

            @Override
            public byte[] key() {
                return it.key();
            }

            @Override
            public byte[] value() {
                return it.value();
            }

            @Override
            public void next() {
                it.next();
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }

    @Override
    public String describeFiles() {
        return describeFiles(db);
    }

    /** Segment files per level and segment bytes, from the store's properties. */
    static String describeFiles(EverettDB db) {
        StringBuilder levels = new StringBuilder();
        for (int level = 0; level < 7; level++) {
            String n;
            try {
                n = db.getProperty("everett.num-files-at-level" + level);
            } catch (IllegalArgumentException e) {
                break; // the store has fewer levels
            }
            if (!n.equals("0")) {
                levels.append(levels.isEmpty() ? "" : ", ").append(n).append(" at L").append(level);
            }
        }
        return "segment files: " + (levels.isEmpty() ? "none" : levels) + "; " + db.getProperty("everett.total-segment-bytes") + " segment bytes";
    }

    @Override
    public void close() {
        db.close();
    }
}
