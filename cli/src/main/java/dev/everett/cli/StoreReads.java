package dev.everett.cli;

import dev.everett.store.EverettDB;
import dev.everett.store.EverettIterator;
import dev.everett.store.ReadOptions;
import java.io.PrintWriter;
import java.util.Arrays;

/** Reads of a store shared by dump, get and scan. */
final class StoreReads {
    private StoreReads() {
    }

    /**
     * Prints the live records in {@code [from, to)} (either bound open when null), forward or in
     * reverse, at most {@code limit} of them (negative: all); returns how many were printed.
     */
    static long print(EverettDB db, byte[] from, byte[] to, boolean reverse, long limit, OutputStyle style, PrintWriter out) {
        long printed = 0;
        try (ReadOptions ro = new ReadOptions()) {
            if (from != null) {
                ro.setIterateLowerBound(from);
            }
            if (to != null) {
                ro.setIterateUpperBound(to);
            }
            try (EverettIterator it = db.newIterator(ro)) {
                if (reverse) {
                    it.seekToLast();
                } else {
                    it.seekToFirst();
                }
                for (; it.isValid() && printed != limit; printed++) {
                    style.print(out, it.key(), it.value());
                    if (reverse) {
                        it.prev();
                    } else {
                        it.next();
                    }
                }
            }
        }
        return printed;
    }

    /** The number of live records and whether a backward walk meets exactly the forward walk's keys. */
    static long countBothWays(EverettDB db) {
        long forward = 0;
        long hash = 0;
        try (EverettIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                forward++;
                hash += Arrays.hashCode(it.key()) * 31L + Arrays.hashCode(it.value());
            }
            long backward = 0;
            for (it.seekToLast(); it.isValid(); it.prev()) {
                backward++;
                hash -= Arrays.hashCode(it.key()) * 31L + Arrays.hashCode(it.value());
            }
            if (backward != forward || hash != 0) {
                throw CliException.damage(db.directory() + ": a forward walk read " + forward + " records and a backward walk " + backward
                        + (backward == forward ? " with other contents" : ""));
            }
        }
        return forward;
    }
}
