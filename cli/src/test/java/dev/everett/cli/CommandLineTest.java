package dev.everett.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CommandLineTest {
    @Test
    void everySubcommandHasHelp() {
        CommandLine root = new CommandLine(new Everett());
        assertTrue(root.getSubcommands().size() >= 8, "subcommands: " + root.getSubcommands().keySet());
        for (String name : root.getSubcommands().keySet()) {
            if (name.equals("help")) {
                continue;
            }
            Cli.Result r = Cli.run(name, "--help");
            assertEquals(0, r.exit(), name + ": " + r);
            assertTrue(r.out().startsWith("Usage: everett " + name), name + ": " + r);
        }
        assertEquals(0, Cli.run("--help").exit());
        assertTrue(Cli.run("--version").out().startsWith("everett "));
    }

    @Test
    void helpTextsSayWhatTheCommandsTake() {
        for (String name : new String[] {"inspect", "index"}) {
            String help = Cli.run(name, "--help").out();
            assertTrue(help.startsWith("Usage: everett " + name + " [-hV] [--debug] [--values=raw|optional] FILE\n"), help);
            assertTrue(!help.contains("DB"), name + " takes a segment file only:\n" + help);
        }
        // A description is wrapped as paragraphs: no line of it breaks off after a comma or semicolon.
        CommandLine root = new CommandLine(new Everett());
        for (String name : root.getSubcommands().keySet()) {
            String help = Cli.run(name, "--help").out();
            String description = help.substring(0, help.indexOf("\n  "));
            for (String line : description.lines().toList()) {
                assertTrue(!line.endsWith(";") && !line.endsWith(","), name + ": a line broken mid-sentence: \"" + line + "\"\n" + help);
            }
        }
    }

    @Test
    void usageErrorsExitTwo() {
        Cli.Result unknown = Cli.run("frobnicate");
        assertEquals(2, unknown.exit(), unknown.toString());
        assertTrue(unknown.err().contains("Unmatched argument"), unknown.toString());
        assertEquals(2, Cli.run().exit(), "no subcommand");
        Cli.Result missing = Cli.run("load", "in.jsonl", "out.kv");
        assertEquals(2, missing.exit(), missing.toString());
        assertTrue(missing.err().contains("--format"), missing.toString());
        Cli.Result badK = Cli.run("load", "--format", "kv02", "--k", "4", "in.jsonl", "out.kv");
        assertEquals(2, badK.exit(), badK.toString());
        assertTrue(badK.err().contains("group size K"), badK.toString());
        Cli.Result badHex = Cli.run("get", "x.kv", "0xabc");
        assertEquals(2, badHex.exit(), badHex.toString());
        assertTrue(badHex.err().contains("even number of digits"), badHex.toString());
    }

    @Test
    void aUsageErrorIsOneLineNamingTheCommandAndTheArgument() {
        String[][] cases = {
            {"load", "--format", "kv02", "in.jsonl"},
            {"load", "--format", "kv04", "in.jsonl", "out.kv"},
            {"scan", "db", "--limit", "-5"},
            {"get", "x.kv", "0xabc"},
            {"frobnicate"},
        };
        String[] named = {"'OUT.kv'", "'--format'", "--limit", "KEY", "'frobnicate'"};
        for (int i = 0; i < cases.length; i++) {
            Cli.Result r = Cli.run((Object[]) cases[i]);
            assertEquals(2, r.exit(), r.toString());
            String command = cases[i][0].equals("frobnicate") ? "everett" : "everett " + cases[i][0];
            assertTrue(r.err().startsWith(command + ": ") && r.err().contains(named[i]), r.toString());
            assertTrue(r.err().endsWith(" (see " + command + " --help)\n"), r.toString());
            assertEquals(1, r.err().lines().count(), r.toString());
            assertEquals("", r.out());
        }
    }

    @Test
    void failuresExitOneWithOneLine() {
        Cli.Result r = Cli.run("inspect", "/nonexistent/file.kv");
        assertEquals(1, r.exit(), r.toString());
        assertEquals("everett inspect: no such file: /nonexistent/file.kv\n", r.err());
    }

    @Test
    void debugAddsTheStackTrace() {
        for (Cli.Result r : new Cli.Result[] {Cli.run("--debug", "inspect", "/nonexistent/file.kv"), Cli.run("inspect", "--debug", "/nonexistent/file.kv")}) {
            assertEquals(1, r.exit(), r.toString());
            assertTrue(r.err().startsWith("everett inspect: no such file: /nonexistent/file.kv\n"), r.toString());
            assertTrue(r.err().contains("NoSuchFileException") && r.err().contains("\tat "), r.toString());
        }
    }

    @Test
    void anErrorOfTheJvmIsOneLineToo(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path in = dir.resolve("big.jsonl");
        // One line of 12 MB: reading it needs more than the 16 MB heap given below.
        java.nio.file.Files.writeString(in, "{\"key\":\"" + "ab".repeat(6 << 20) + "\",\"value\":\"00\"}\n");
        Process p = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx16m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Everett.class.getName(), "load", "--format", "kv02", in.toString(), dir.resolve("big.kv").toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(1, p.exitValue(), output);
        assertTrue(output.startsWith("everett load: out of memory"), output);
        assertEquals(1, output.lines().count(), output);
        assertTrue(!java.nio.file.Files.exists(dir.resolve("big.kv")), output);
    }

    @Test
    void textAndHexRoundTrip() {
        byte[][] samples = {{}, {'a'}, "0xab".getBytes(), {0, (byte) 0xFF}, "key with spaces".getBytes()};
        for (byte[] b : samples) {
            assertEquals(java.util.HexFormat.of().formatHex(b),
                    java.util.HexFormat.of().formatHex(ByteText.parse(ByteText.render(b, ByteText.Style.TEXT))));
            assertEquals(java.util.HexFormat.of().formatHex(b),
                    java.util.HexFormat.of().formatHex(ByteText.parse(ByteText.render(b, ByteText.Style.HEX))));
        }
    }
}
