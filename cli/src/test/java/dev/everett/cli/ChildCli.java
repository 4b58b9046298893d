package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

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
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
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

    /** The temporary files and directories ({@code *.tmp-*}) directly under {@code dir}. */
    static List<Path> temporaries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().contains(".tmp-")).toList();
        }
    }
}
