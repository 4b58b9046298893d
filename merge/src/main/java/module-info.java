/**
 * Everett's native merger behind {@link dev.everett.api.MergeEngine} (found with
 * {@link java.util.ServiceLoader}). A host exports nothing from here: it starts a merge through
 * the SPI alone.
 */
module dev.everett.merge {
    requires transitive dev.everett.api;
    requires dev.everett.segment;

    provides dev.everett.api.MergeEngine with dev.everett.merge.NativeMergeEngine;
}
