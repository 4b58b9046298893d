package dev.everett.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A store opened by a child JVM. {@code LockHolder DIR rw|ro} opens it (read-write or read-only),
 * prints {@code R} once it is open, and closes it when its standard input ends.
 * {@code LockHolder DIR try-rw|try-ro} tries the open once and prints {@code OPENED} (closing it
 * again) or {@code REFUSED} and the reason.
 */
public final class LockHolder {
    private LockHolder() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        String mode = args[1];
        boolean readOnly = mode.endsWith("ro");
        if (mode.startsWith("try-")) {
            try (EverettDB db = readOnly ? EverettDB.openReadOnly(dir, new DBOptions()) : EverettDB.open(dir)) {
                System.out.println("OPENED");
            } catch (IllegalStateException refused) {
                System.out.println("REFUSED " + refused.getMessage());
            }
            return;
        }
        try (EverettDB db = readOnly ? EverettDB.openReadOnly(dir, new DBOptions()) : EverettDB.open(dir)) {
            System.out.println("R");
            System.out.flush();
            while (System.in.read() >= 0) {
                // held until the parent closes our input
            }
        }
    }
}
