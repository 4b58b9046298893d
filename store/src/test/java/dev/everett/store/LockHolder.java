package dev.everett.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A store held open by a child JVM: {@code LockHolder DIR rw|ro} opens the store (read-write or
 * read-only), prints {@code R} once it is open, and closes it when its standard input ends.
 */
public final class LockHolder {
    private LockHolder() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        try (EverettDB db = args[1].equals("ro") ? EverettDB.openReadOnly(dir, new DBOptions()) : EverettDB.open(dir)) {
            System.out.println("R");
            System.out.flush();
            while (System.in.read() >= 0) {
                // held until the parent closes our input
            }
        }
    }
}
