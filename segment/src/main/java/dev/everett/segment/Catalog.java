package dev.everett.segment;

import dev.everett.api.ObjectId;
import java.util.Objects;

/**
 * One node of a fractional cascade: a native stream with its IX03 index, the catalog its main
 * route samples (if any) and the native leaf its secondary route samples (if any). Binding
 * checks that the identities and counts recorded in the index agree with the objects given.
 */
final class Catalog {
    final ObjectId nativeId;
    final ObjectId indexId;
    final Kv02Reader natives;
    final IndexReader index;
    final Catalog main;
    final ObjectId secondaryId;
    final Kv02Reader secondary;
    /** Catalogs below this one on the main route, plus one. */
    final int depth;

    Catalog(ObjectId nativeId, Kv02Reader natives, ObjectId indexId, IndexReader index, Catalog main,
            ObjectId secondaryId, Kv02Reader secondary) {
        this.nativeId = Objects.requireNonNull(nativeId);
        this.indexId = Objects.requireNonNull(indexId);
        this.natives = Objects.requireNonNull(natives);
        this.index = Objects.requireNonNull(index);
        this.main = main;
        this.secondaryId = secondary == null ? ObjectId.NONE : secondaryId;
        this.secondary = secondary;
        this.depth = main == null ? 1 : main.depth + 1;
        bind();
    }

    private void bind() {
        IndexDirectory d = index.directory();
        Corruption c = index.corruption();
        long k = index.groupSize();
        c.require(d.nativeId().equals(nativeId), 96 + 88, "index names native " + d.nativeId() + " but the catalog's native is " + nativeId);
        c.require(index.nativeCount() == natives.recordCount(), 96 + 8,
                "index describes " + index.nativeCount() + " native records but the native has " + natives.recordCount());
        c.require(d.present()[0] == (main != null), 96 + 82, "main-target flag disagrees with the chain");
        if (main != null) {
            c.require(d.mainNativeId().equals(main.nativeId) && d.mainIndexId().equals(main.indexId), 96 + 104,
                    "main target recorded as " + d.mainNativeId() + "/" + d.mainIndexId() + " but bound to " + main.nativeId + "/" + main.indexId);
            c.require(d.counts()[0] == main.index.groups(), 96 + 16,
                    "main route holds " + d.counts()[0] + " samples but its target has " + main.index.groups() + " groups");
        }
        c.require(d.present()[1] == (secondary != null), 96 + 83, "secondary-target flag disagrees with the chain");
        if (secondary != null) {
            c.require(d.secondaryId().equals(secondaryId), 96 + 136, "secondary recorded as " + d.secondaryId() + " but bound to " + secondaryId);
            c.require(d.counts()[1] == Le.ceilDiv(secondary.recordCount(), k), 96 + 24,
                    "secondary route holds " + d.counts()[1] + " samples but its leaf has " + secondary.recordCount() + " records");
        }
    }

    FcStream nativeStream() {
        return natives.typed().stream();
    }

    FcStream secondaryStream() {
        return secondary.typed().stream();
    }

    long virtualCount() {
        return index.virtualCount();
    }
}
