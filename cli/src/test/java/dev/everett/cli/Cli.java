package dev.everett.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the everett command in-process and captures what it prints. */
final class Cli {
    /**
     * One run's outcome.
     *
     * @param exit the exit code
     * @param out  standard output
     * @param err  standard error
     */
    record Result(int exit, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    private Cli() {
    }

    static Result run(Object... args) {
        String[] a = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            a[i] = args[i].toString();
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Everett.run(a, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(exit, out.toString(), err.toString());
    }
}
