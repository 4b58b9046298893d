package dev.everett.segment;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.ObjectStore;
import dev.everett.api.ObjectStoreOptions;
import dev.everett.api.OpenMode;
import dev.everett.api.Policy;
import dev.everett.api.SegmentDescription;
import dev.everett.api.SegmentEngine;
import dev.everett.api.SegmentReader;
import dev.everett.api.SegmentWriter;
import dev.everett.segment.io.FileInMemory;
import dev.everett.segment.natives.NativeReader;
import dev.everett.segment.natives.NativeWriter;
import dev.everett.segment.objects.MappedObjectStore;
import dev.everett.segment.natives.SegmentDescriber;
import java.io.IOException;
import java.nio.file.Path;

/** Everett's KV02 (byte or bit units) and KV03 segments and IX03 indexes, registered for {@link java.util.ServiceLoader}. */
public final class EverettSegmentEngine implements SegmentEngine {
    @Override
    public SegmentWriter newWriter(Path target, Policy policy, CommonWidthRule widthRule) throws IOException {
        return new NativeWriter(target, policy, widthRule);
    }

    @Override
    public ObjectStore openObjectStore(Path root, Policy policy, ObjectStoreOptions options) throws IOException {
        return new MappedObjectStore(root, policy, options);
    }

    @Override
    public SegmentReader open(Path file, Policy policy, OpenMode mode) throws IOException {
        return NativeReader.open(file, policy, mode);
    }

    /**
     * Copies the file into huge-page memory where this module may make native calls (see
     * {@link FileInMemory}; files under 2 MiB into ordinary memory), else maps it.
     */
    @Override
    public SegmentReader openInMemory(Path file, Policy policy, OpenMode mode) throws IOException {
        return NativeReader.openInMemory(file, policy, mode, true);
    }

    @Override
    public boolean readsIntoMemory() {
        return FileInMemory.copiesFiles();
    }

    @Override
    public SegmentDescription describe(Path file) throws IOException {
        return SegmentDescriber.describe(file);
    }
}
