/**
 * Everett's native merger behind {@link dev.everett.api.MergeEngine} (found with
 * {@link java.util.ServiceLoader}). It exports nothing: a host starts a merge through the SPI
 * alone ({@code MergeEngine.load()}).
 */
module dev.everett.merge {
    requires dev.everett.api;
    // The encoded-record view of natives (exported to this module alone) and the segment engine behind it.
    requires dev.everett.segment;

    provides dev.everett.api.MergeEngine with dev.everett.merge.NativeMergeEngine;
}
