package dev.everett.compaction;

import dev.everett.api.CatalogRef;
import dev.everett.api.CorruptSegmentException;
import dev.everett.api.ObjectId;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One manifest edit: segments removed and added (each at a level), optionally the host's state,
 * optionally the whole-run chain that indexes the runs after the edit. The first edit of every
 * manifest is a snapshot: it names the layout and adds every segment of the version.
 *
 * <p>Payload: tag {@code 'E'}, flags (bit 0 snapshot, bit 1 host state, bit 2 chain), the edit
 * number (LEB128), the layout (snapshots only, one byte), the host state (length and bytes), the
 * removed identities (count, 16 bytes each), the added segments (count, then each: level and the
 * length-prefixed {@link SegmentMeta} serialisation), and the chain (its identity, its catalogs
 * bottom up as native and index identities, and its head).
 */
record Edit(long number, boolean snapshot, Layout layout, byte[] hostState, List<ObjectId> removed,
            List<Added> added, WholeRunChain.State chain) {
    static final int TAG = 'E';

    /** A segment added at a level. */
    record Added(int level, SegmentMeta meta) {
    }

    Edit {
        removed = List.copyOf(removed);
        added = List.copyOf(added);
    }

    byte[] encode() {
        MetaCodec.Bytes out = new MetaCodec.Bytes();
        out.u8(TAG);
        out.u8((snapshot ? 1 : 0) | (hostState != null ? 2 : 0) | (chain != null ? 4 : 0));
        out.varint(number);
        if (snapshot) {
            out.u8(layout.ordinal());
        }
        if (hostState != null) {
            out.bytes(hostState);
        }
        out.varint(removed.size());
        for (ObjectId id : removed) {
            out.id(id);
        }
        out.varint(added.size());
        for (Added a : added) {
            out.varint(a.level());
            out.bytes(a.meta().toBytes());
        }
        if (chain != null) {
            out.id(chain.id());
            out.varint(chain.catalogs().size());
            for (CatalogRef c : chain.catalogs()) {
                out.id(c.nativeId());
                out.id(c.indexId());
            }
            out.id(chain.head().nativeId());
            out.id(chain.head().indexId());
        }
        return out.raw();
    }

    /** Decodes a payload that lies at {@code fileOffset} of {@code file}. */
    static Edit decode(byte[] b, int off, int len, Path file, long fileOffset) {
        MetaCodec.Reader in = new MetaCodec.Reader(b, off, len, file, fileOffset);
        in.require(in.u8() == TAG, 0, "manifest record is not an edit (tag 'E')");
        int flags = in.u8();
        in.require((flags & ~7) == 0, 1, "unknown edit flags " + flags);
        long number = in.varint();
        Layout layout = null;
        if ((flags & 1) != 0) {
            int l = in.u8();
            in.require(l < Layout.values().length, in.position() - 1, "unknown layout " + l);
            layout = Layout.values()[l];
        }
        byte[] host = (flags & 2) != 0 ? in.bytes() : null;
        long nRemoved = in.varint();
        in.require(nRemoved <= len / 16, in.position(), "edit removes " + nRemoved + " segments, more than its bytes can hold");
        List<ObjectId> removed = new ArrayList<>();
        for (long i = 0; i < nRemoved; i++) {
            removed.add(in.id());
        }
        long nAdded = in.varint();
        in.require(nAdded <= len, in.position(), "edit adds " + nAdded + " segments, more than its bytes can hold");
        List<Added> added = new ArrayList<>();
        for (long i = 0; i < nAdded; i++) {
            long level = in.varint();
            in.require(level < 1 << 16, in.position(), "level " + level + " is out of range");
            int at = in.position();
            byte[] meta = in.bytes();
            int metaStart = at + (in.position() - at - meta.length);
            added.add(new Added((int) level, SegmentMeta.fromBytes(meta, 0, meta.length, file, fileOffset + metaStart)));
        }
        WholeRunChain.State chain = null;
        if ((flags & 4) != 0) {
            ObjectId id = in.id();
            long n = in.varint();
            in.require(n <= len / 32, in.position(), "chain of " + n + " catalogs is more than its bytes can hold");
            List<CatalogRef> catalogs = new ArrayList<>();
            for (long i = 0; i < n; i++) {
                catalogs.add(new CatalogRef(in.id(), in.id()));
            }
            chain = new WholeRunChain.State(id, catalogs, new CatalogRef(in.id(), in.id()));
        }
        in.requireEnd("edit");
        return new Edit(number, (flags & 1) != 0, layout, host, removed, added, chain);
    }

    /** Rethrows a codec error as a manifest error at the same place. */
    static CorruptManifestException asManifest(CorruptSegmentException e) {
        return e instanceof CorruptManifestException m ? m : new CorruptManifestException(e.file(), e.offset(), e.rule());
    }
}
