package dev.everett.cli;

import dev.everett.api.ValueGrammar;
import picocli.CommandLine.Option;

/** {@code --values raw|optional}: the value grammar, the one policy field no file records. */
final class GrammarOption {
    /** The grammar names on the command line. */
    enum Values { raw, optional }

    @Option(names = "--values", paramLabel = "raw|optional", defaultValue = "optional",
            description = "Value grammar, which no file records: optional (absent = tombstone, the default) or raw.")
    Values values = Values.optional;

    ValueGrammar grammar() {
        return values == Values.raw ? ValueGrammar.RAW : ValueGrammar.OPTIONAL;
    }
}
