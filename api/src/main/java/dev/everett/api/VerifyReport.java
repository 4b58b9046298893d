package dev.everett.api;

/**
 * The outcome of a successful {@link SegmentReader#verify()}: the file is valid. It is also
 * <em>canonical</em> when every record retains the exact maximal shared prefix (what Everett's
 * writers and ours emit); valid files with shorter ("conservative") retention are accepted but
 * reported here.
 *
 * @param records                  records walked
 * @param blocks                   blocks (Elias–Fano entries minus one)
 * @param canonical                true if retention is maximal everywhere
 * @param firstNonCanonicalRecord  ordinal of the first record with shorter retention, or -1
 */
public record VerifyReport(long records, long blocks, boolean canonical, long firstNonCanonicalRecord) {
}
