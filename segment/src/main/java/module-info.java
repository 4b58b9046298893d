/**
 * Everett's segment engine: KV02 (byte and bit units) and KV03 natives, IX03 indexes, key filters
 * and the cascade, behind {@link dev.everett.api.SegmentEngine} (found with
 * {@link java.util.ServiceLoader}). A host reaches nothing else: the one export is the encoded
 * view of a native that the merge module builds its merger on.
 */
@SuppressWarnings("module") // dev.everett.merge is built after this module, so javac cannot see it here
module dev.everett.segment {
    requires transitive dev.everett.api;

    // The native merger walks records as encoded spans and writes them back without decoding.
    exports dev.everett.segment.encoded to dev.everett.merge;

    provides dev.everett.api.SegmentEngine with dev.everett.segment.EverettSegmentEngine;
}
