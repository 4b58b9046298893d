package dev.everett.cli;

import dev.everett.api.CorruptSegmentException;
import dev.everett.api.EverettException;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import org.rocksdb.RocksDBException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code everett} command. Exit codes: 0 when the command did what it was asked, 1 when it
 * failed (a corrupt or missing file, a key not found, a check that disagrees), 2 for a usage
 * error (an unknown option, a malformed argument), one line naming the command and the argument.
 */
@Command(name = "everett", mixinStandardHelpOptions = true, versionProvider = Everett.Version.class,
        description = "Everett segments and stores from the shell: a demo against RocksDB, inspection, verification, import and export.",
        subcommands = {
            DemoCommand.class,
            LoadCommand.class, DumpCommand.class, GetCommand.class, InspectCommand.class, VerifyCommand.class,
            MergeCommand.class, IndexCommand.class,
            ScanCommand.class, PutCommand.class, DeleteCommand.class, CompactCommand.class, StatsCommand.class,
            ImportCommand.class, ExportCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Everett implements Runnable {
    /** Exit code of a command that failed. */
    static final int FAILED = 1;

    /** Exit code when standard output was closed by its reader, as for a process that SIGPIPE ended. */
    static final int OUTPUT_CLOSED = 141;

    /** Exit code of a usage error. */
    static final int USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Option(names = "--debug", scope = CommandLine.ScopeType.INHERIT,
            description = "Print the stack trace after a failure's one-line message.")
    boolean debug;

    public static void main(String[] args) {
        // Standard output is buffered (flushed at the end): a dump of millions of records is not a
        // write call per line. Standard error, for messages and progress, is flushed at each line,
        // after standard output, so that the two keep their order on a terminal.
        PrintWriter stdout = new PrintWriter(new BufferedWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                System.out.charset()), 1 << 16));
        PrintWriter err = new PrintWriter(System.err, true) {
            @Override
            public void write(String s, int off, int len) {
                stdout.flush();
                super.write(s, off, len);
            }
        };
        System.exit(run(args, stdout, err));
    }

    /** Runs one command line, writing to the given streams; returns the exit code. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        Everett everett = new Everett();
        CommandLine cl = new CommandLine(everett);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((e, command, parse) -> e instanceof OutputStyle.OutputClosed ? OUTPUT_CLOSED
                : failed(everett, command.getCommandSpec().qualifiedName(), describe(e), e, err));
        // A usage error is one line naming the command and the argument, with where to find the
        // usage, rather than the whole help text (which --help prints).
        cl.setParameterExceptionHandler((e, arguments) -> {
            String command = e.getCommandLine().getCommandSpec().qualifiedName();
            e.getCommandLine().getErr().println(command + ": " + e.getMessage() + " (see " + command + " --help)");
            e.getCommandLine().getErr().flush();
            return USAGE;
        });
        try {
            return cl.execute(args);
        } catch (Error e) {
            // The JVM's errors pass through picocli: they too get one line (and the trace on --debug).
            CommandLine.ParseResult parsed = cl.getParseResult();
            while (parsed != null && parsed.subcommand() != null) {
                parsed = parsed.subcommand();
            }
            String command = parsed == null ? "everett" : parsed.commandSpec().qualifiedName();
            String message = e instanceof OutOfMemoryError
                    ? "out of memory (" + e.getMessage() + "): give the JVM a larger heap, e.g. JAVA_TOOL_OPTIONS=-Xmx8g"
                    : "internal error: " + e + (everett.debug ? "" : " (--debug prints the stack trace)");
            return failed(everett, command, message, e, err);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** Prints a failure's line (and on --debug its stack trace); returns the exit code. */
    private static int failed(Everett everett, String command, String message, Throwable e, PrintWriter err) {
        err.println(command + ": " + message);
        if (everett.debug || Boolean.getBoolean("everett.debug")) {
            e.printStackTrace(err);
        }
        err.flush();
        return FAILED;
    }

    /** One line saying what went wrong; Everett's exceptions already name the file, offset and rule. */
    static String describe(Throwable e) {
        if (e instanceof UncheckedIOException u) {
            e = u.getCause();
        }
        if (e instanceof NoSuchFileException n) {
            return "no such file: " + n.getFile();
        }
        if (e instanceof FileSystemException f && f.getFile() != null) {
            return f.getFile() + ": " + fileProblem(f);
        }
        if (e instanceof CorruptSegmentException || e instanceof EverettException || e instanceof CliException) {
            return e.getMessage();
        }
        if (e instanceof RocksDBException) {
            return "RocksDB: " + e.getMessage();
        }
        if (e instanceof IOException) {
            return "I/O error: " + e;
        }
        // The project's misuse exceptions carry a message that names the argument and what was expected.
        if ((e instanceof IllegalArgumentException || e instanceof IllegalStateException) && e.getMessage() != null) {
            return e.getMessage();
        }
        return e.toString();
    }

    /** What went wrong with a file, in words (the JDK's exceptions carry a reason only sometimes). */
    private static String fileProblem(FileSystemException f) {
        if (f instanceof FileAlreadyExistsException) {
            Path p = Path.of(f.getFile());
            return Files.exists(p) && !Files.isDirectory(p) ? "exists and is not a directory" : "already exists";
        }
        if (f instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (f instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (f instanceof DirectoryNotEmptyException) {
            return "directory not empty";
        }
        return f.getReason() != null ? f.getReason() : f.getClass().getSimpleName();
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }

    /** The version printed by {@code --version}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Everett.class.getPackage().getImplementationVersion();
            return new String[] {"everett " + (v == null ? "(development build)" : v)};
        }
    }
}
