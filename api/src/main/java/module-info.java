/**
 * The Everett SPI: what a host LSM store codes against. Engines are found with
 * {@link java.util.ServiceLoader}: {@code everett-segment} provides {@link dev.everett.api.SegmentEngine},
 * {@code everett-merge} provides {@link dev.everett.api.MergeEngine}. JDK only.
 */
module dev.everett.api {
    exports dev.everett.api;

    uses dev.everett.api.SegmentEngine;
    uses dev.everett.api.MergeEngine;
}
