package dev.everett.cli;

import java.io.IOException;
import picocli.CommandLine.Command;

/** {@code index}: (re)builds the index chain beside a segment file. */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = {"Builds the index chain beside a segment file.",
            "Writes (or rewrites) FILE.chain/, the IX03 chain that get and dump seek through."})
final class IndexCommand extends FileOnlyCommand {

    @Override
    public Integer call() throws IOException {
        try (SegmentFile f = openTarget()) {
            IndexChain.Head head = IndexChain.build(f.engine, f.description, f.policy);
            out().printf("indexed %s: chain %s, head %s (%d bytes beside the native)%n", target,
                    IndexChain.dirFor(target), head.head().indexId(), Sizes.chainBytes(IndexChain.dirFor(target), f.description.fileBytes()));
        }
        return 0;
    }
}
