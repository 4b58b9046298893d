package dev.everett.integration;

import java.nio.file.Path;

/** The kind of a store file by its name, as the fault and damage figures count them. */
public final class FileKinds {
    private FileKinds() {}

    /**
     * log, manifest, current, descriptor (STORE, or an object store's OBJECTS), native, index,
     * filter, or the name itself; a segment engine's temporary file ({@code .<name>.tmp-<hex>},
     * published as {@code <name>}) counts as the kind of the file it becomes.
     */
    public static String of(Path file) {
        String n = file.getFileName().toString();
        int tmp = n.indexOf(".tmp-");
        if (n.startsWith(".") && tmp > 0) {
            n = n.substring(1, tmp);
        }
        if (n.endsWith(".log")) {
            return "log";
        }
        if (n.startsWith("MANIFEST")) {
            return "manifest";
        }
        if (n.equals("CURRENT")) {
            return "current";
        }
        if (n.equals("STORE") || n.equals("OBJECTS")) { // the store's and each segment directory's object store's
            return "descriptor";
        }
        if (n.endsWith(".kv")) {
            return "native";
        }
        if (n.endsWith(".index")) {
            return "index";
        }
        if (n.endsWith(".filter")) {
            return "filter";
        }
        return n.contains(".") ? n.substring(n.lastIndexOf('.') + 1) : "directory";
    }
}
