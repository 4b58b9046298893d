package dev.everett.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.everett.api.SegmentEngine;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.spi.ToolProvider;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module boundary as a host jar sees it: two tiny host modules are compiled with
 * {@code javac} against the built modules of api, segment and merge on the module path (tests
 * themselves run on the class path, where no boundary holds). A host that uses only the SPI finds
 * both engines through {@link java.util.ServiceLoader} when run on the module path; a host that
 * imports an implementation package does not compile. This fails if someone exports the natives
 * (or any other implementation) package, or stops providing an engine.
 */
class ModuleBoundaryTest {
    @TempDir
    static Path dir;

    /** The module path: where the api, segment and merge modules were built (directories or jars). */
    private static String modulePath;

    @BeforeAll
    static void locateModules() throws Exception {
        List<String> paths = new ArrayList<>();
        for (Class<?> c : List.of(SegmentEngine.class, Class.forName("dev.everett.segment.EverettSegmentEngine"), NativeMergeEngine.class)) {
            paths.add(location(c).toString());
        }
        modulePath = String.join(File.pathSeparator, paths);
    }

    private static Path location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void aHostOnTheModulePathFindsBothEnginesThroughServiceLoader() throws Exception {
        Path src = dir.resolve("good-src");
        hostModule(src, "requires dev.everett.api", "uses dev.everett.api.SegmentEngine", "uses dev.everett.api.MergeEngine");
        write(src.resolve("host/Main.java"), """
                package host;

                import dev.everett.api.MergeEngine;
                import dev.everett.api.SegmentEngine;
                import java.util.ServiceLoader;

                public class Main {
                    public static void main(String[] args) {
                        for (SegmentEngine e : ServiceLoader.load(SegmentEngine.class)) {
                            System.out.println("segment " + e.getClass().getModule().getName());
                        }
                        for (MergeEngine e : ServiceLoader.load(MergeEngine.class)) {
                            System.out.println("merge " + e.getClass().getModule().getName());
                        }
                        System.out.println("load " + SegmentEngine.load().getClass().getModule().getName()
                                + " " + MergeEngine.load().getClass().getModule().getName());
                    }
                }
                """);
        Path out = dir.resolve("good-classes");
        Result javac = javac(src, out);
        assertEquals(0, javac.exit(), "the SPI-only host does not compile:\n" + javac.output());
        Result run = run(tool("java"), "--module-path", out + File.pathSeparator + modulePath, "--module", "host/host.Main");
        assertEquals(0, run.exit(), run.output());
        assertEquals(List.of("segment dev.everett.segment", "merge dev.everett.merge", "load dev.everett.segment dev.everett.merge"),
                run.output().lines().toList(), "engines a module-path host finds");
    }

    @Test
    void aHostCannotCompileAgainstImplementationPackages() throws Exception {
        Path src = dir.resolve("bad-src");
        hostModule(src, "requires dev.everett.api", "requires dev.everett.segment", "requires dev.everett.merge");
        List<String> internals = List.of("dev.everett.segment.natives.NativeReader", "dev.everett.segment.fc.Framing",
                "dev.everett.segment.encoded.EncodedRecords", "dev.everett.merge.NativeMerger");
        StringBuilder imports = new StringBuilder("package host;\n\n");
        for (String c : internals) {
            imports.append("import ").append(c).append(";\n");
        }
        write(src.resolve("host/Reach.java"), imports + "\nclass Reach {\n}\n");
        Result javac = javac(src, dir.resolve("bad-classes"));
        assertNotEquals(0, javac.exit(), "a host compiled against implementation packages:\n" + javac.output());
        for (String c : internals) {
            String pkg = c.substring(0, c.lastIndexOf('.'));
            String module = pkg.startsWith("dev.everett.merge") ? "dev.everett.merge" : "dev.everett.segment";
            assertTrue(javac.output().contains("package " + pkg + " is not visible")
                            && javac.output().contains("package " + pkg + " is declared in module " + module + ", which does not export it"),
                    pkg + " should be out of a host's reach:\n" + javac.output());
        }
    }

    private record Result(int exit, String output) {
    }

    /** Compiles a host in this JVM ({@code javac}'s tool provider: no compiler start-up, no compile-time dependency). */
    private static Result javac(Path src, Path out) throws IOException {
        // An empty class path: in this JVM javac would otherwise take the test class path, where every package is visible.
        Path empty = Files.createDirectories(dir.resolve("empty-class-path"));
        List<String> args = new ArrayList<>(List.of("--module-path", modulePath, "--class-path", empty.toString(), "-d", out.toString()));
        try (var files = Files.walk(src)) {
            files.filter(f -> f.toString().endsWith(".java")).map(Path::toString).sorted().forEach(args::add);
        }
        ToolProvider javac = ToolProvider.findFirst("javac").orElseThrow(() -> new AssertionError("this JDK has no javac tool"));
        StringWriter output = new StringWriter();
        try (PrintWriter w = new PrintWriter(output)) {
            int exit = javac.run(w, w, args.toArray(String[]::new));
            w.flush();
            return new Result(exit, output.toString());
        }
    }

    private static Result run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + String.join(" ", command));
        }
        return new Result(p.exitValue(), output);
    }

    /** A tool of the JDK running this test. */
    private static String tool(String name) {
        return Path.of(System.getProperty("java.home"), "bin", name).toString();
    }

    /** The module declaration of a host module named {@code host}. */
    private static void hostModule(Path src, String... directives) throws IOException {
        write(src.resolve("module-info.java"), "module host {\n    " + String.join(";\n    ", directives) + ";\n}\n");
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
