package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code everett} launcher at the repository root, run in a copy of the repository's shape
 * whose build ({@code mvnw}) and JDK ({@code .ci/with-jdk25}) are stand-ins: the build writes the
 * jar and fails as told, the JDK's java prints what it ran.
 */
class LauncherTest {
    @TempDir
    Path root;

    private static void script(Path file, String body) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/usr/bin/env bash\n" + body);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private String[] run() throws Exception {
        Process p = new ProcessBuilder(root.resolve("everett").toString(), "stats", "db").directory(root.toFile())
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return new String[] {Integer.toString(p.exitValue()), new String(p.getInputStream().readAllBytes())};
    }

    @Test
    void aFailedBuildIsRetriedNotRunAsIfItHadSucceeded() throws Exception {
        Path launcher = Path.of("").toAbsolutePath().getParent().resolve("everett");
        Files.copy(launcher, root.resolve("everett"));
        Files.setPosixFilePermissions(root.resolve("everett"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        Files.createDirectories(root.resolve("cli/src/main/java"));
        Files.writeString(root.resolve("cli/src/main/java/A.java"), "class A {}");
        script(root.resolve(".ci/with-jdk25"), "export JAVA_HOME=\"$(dirname \"$0\")/jdk\"\nexec \"$@\"\n");
        script(root.resolve(".ci/jdk/bin/java"), "echo \"ran $(cat cli/target/everett-cli.jar)\"\n");
        // The build writes the jar as it goes, then fails while the file FAIL exists (an interrupted or failed build).
        script(root.resolve("mvnw"), "echo build >> builds\nmkdir -p cli/target/lib\necho partial > cli/target/everett-cli.jar\n"
                + "[ -e FAIL ] && { echo 'BUILD FAILURE'; exit 1; }\necho whole > cli/target/everett-cli.jar\n");
        Files.writeString(root.resolve("FAIL"), "");
        String[] first = run();
        assertEquals("1", first[0], first[1]);
        assertTrue(first[1].contains("BUILD FAILURE") && first[1].contains("the build failed"), first[1]);

        String[] second = run();
        assertEquals("1", second[0], "the half-built jar is not run: " + second[1]);
        assertEquals(2, Files.readAllLines(root.resolve("builds")).size(), "the build is tried again");

        Files.delete(root.resolve("FAIL"));
        String[] third = run();
        assertEquals("0", third[0], third[1]);
        assertTrue(third[1].endsWith("ran whole\n"), third[1]);
        String[] fourth = run();
        assertEquals("ran whole\n", fourth[1], "no build once the jar is up to date");
        assertEquals(3, Files.readAllLines(root.resolve("builds")).size());
    }
}
