package dev.everett.api;

/**
 * Names a catalog of a fractional cascade: a native object and the index object built over it.
 *
 * @param nativeId the native ({@code .kv}) object
 * @param indexId  the IX03 ({@code .index}) object
 */
public record CatalogRef(ObjectId nativeId, ObjectId indexId) {
    public CatalogRef {
        java.util.Objects.requireNonNull(nativeId, "nativeId");
        java.util.Objects.requireNonNull(indexId, "indexId");
    }
}
