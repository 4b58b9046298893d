/**
 * The {@code everett} command: the demo against RocksDB, segment-file and store tools, RocksDB
 * import and export. An application: it exports nothing. The launcher runs it on the class path;
 * this descriptor states what it needs and keeps its packages closed on the module path.
 */
module dev.everett.cli {
    requires dev.everett.store;
    requires info.picocli;
    requires java.desktop;       // JFreeChart draws the demo's chart through AWT, headless
    requires org.jfree.jfreechart; // automatic modules (JFreeChart names itself in its manifest)
    requires HdrHistogram;
    requires rocksdbjni;

    // picocli fills the commands' option fields by reflection.
    opens dev.everett.cli to info.picocli;
}
