package dev.everett.api;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Where a split merge ({@link MergeBuilder#splitInto}) publishes its outputs: the merge asks for
 * output 0 when it starts and for output {@code i + 1} when it rolls over from output {@code i}
 * at a key boundary. Each path is the target of an atomic publish, as for {@link MergeBuilder#into}.
 * Each output needs a path of its own, neither an earlier output's nor an input's: the merge
 * refuses one that is (a {@link java.nio.file.FileAlreadyExistsException} naming it, from
 * the step that rolls over, which poisons the job), since publishing it would replace that file.
 */
@FunctionalInterface
public interface OutputFiles {
    /** The path of output {@code ordinal} (0, 1, 2, … in key order); its parent directory must exist. */
    Path next(int ordinal) throws IOException;
}
