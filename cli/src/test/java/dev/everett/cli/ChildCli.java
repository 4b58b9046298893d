package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/** The everett command in a child JVM, interrupted (SIGINT, as Ctrl-C) once it has reached a given point. */
final class ChildCli {
    /** A condition on the file system, polled while the child runs. */
    interface Reached {
        boolean test() throws IOException;
    }

    /** Assertions on the state the child is held in, made before it is interrupted. */
    interface Held {
        void check() throws IOException;
    }

    private ChildCli() {
    }

    /**
     * Starts {@code everett args} with the JVM options given, waits (up to 30 s) until
     * {@code reached} holds, checks {@code held}, sends SIGINT and waits for the child to end.
     */
    static void interruptWhen(Reached reached, Held held, List<String> jvmOptions, Object... args) throws Exception {
        List<String> command = new ArrayList<>(restoringSigint());
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Djava.awt.headless=true"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Everett.class.getName()));
        for (Object a : args) {
            command.add(a.toString());
        }
        Process child = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!reached.test() && child.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(reached.test(), "the command reached the point to interrupt it at");
            held.check();
            new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).start().waitFor();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the command ends on SIGINT");
        } finally {
            child.destroyForcibly();
        }
    }

    /**
     * What to start the child through so that SIGINT reaches it. A job a shell starts in the
     * background without job control (as some CI runners do) has SIGINT ignored; a child inherits
     * that, and a JVM never handles a shutdown signal it was started ignoring, so Ctrl-C would not
     * end it. Then the child starts through {@code env --default-signal=INT} (GNU coreutils 8.31
     * and later); where that is missing, the test cannot send its signal and is skipped.
     */
    private static List<String> restoringSigint() throws IOException, InterruptedException {
        if (!sigintIgnored()) {
            return List.of();
        }
        List<String> env = List.of("env", "--default-signal=INT");
        List<String> probe = new ArrayList<>(env);
        probe.add("true");
        boolean works;
        try {
            works = new ProcessBuilder(probe).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start().waitFor() == 0;
        } catch (IOException noEnv) {
            works = false;
        }
        Assumptions.assumeTrue(works, "SIGINT is ignored in this test's environment (a background job without job control) "
                + "and env --default-signal is not available to restore it for the child");
        return env;
    }

    /** Whether this JVM runs with SIGINT ignored (the SigIgn mask of /proc/self/status; false where there is none). */
    private static boolean sigintIgnored() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                long mask = Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16);
                return (mask & (1L << (2 - 1))) != 0; // SIGINT is signal 2, bit 1 of the mask
            }
        }
        return false;
    }

    /** The temporary files and directories ({@code *.tmp-*}) directly under {@code dir}. */
    static List<Path> temporaries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().contains(".tmp-")).toList();
        }
    }
}
