package dev.everett.segment.cascade;

import dev.everett.segment.index.IndexDirectory;
import dev.everett.api.Lookup;
import dev.everett.segment.fc.FcStream;
import dev.everett.segment.fc.Frame;
import dev.everett.segment.fc.KeyForm;
import dev.everett.segment.fc.StreamUnits;
import dev.everett.segment.fc.ValueCodec;
import dev.everett.segment.index.Catalog;
import dev.everett.segment.index.IndexReader;
import dev.everett.segment.io.Corruption;
import dev.everett.segment.natives.NativeReader;
import java.lang.foreign.MemorySegment;

/**
 * Queries a chain of catalogs through fractional cascading (docs/format.md, "IX03 body" and "Decisions: IX03 index files"). The head
 * holds at most K occurrences, so its group 0 covers it all and the search starts from the
 * empty key. At each catalog the group chosen above is projected through the rank directories
 * onto a native window and two borrowed windows; a comparison context, carried down and never
 * rebuilt from key bytes, is advanced over their literals. The last borrowed key ≤ Q on the
 * main route picks the group one level down.
 *
 * <p>A point lookup is a replacement read: at each catalog its own native match wins, then its
 * secondary leaf's match, then the catalogs below (newest first). A tombstone found first is the
 * answer: older values under it are not consulted.
 *
 * <p>With a {@link RoutingCache} the descent need not start at the head: a lookup that no
 * catalog down to some decoded one can answer (routing catalogs, or catalogs its key filters rule
 * out) finds its group below that catalog by binary search over the decoded samples, with the
 * context the cascade would have carried there, and the cascade goes on from the catalog below.
 *
 * <p>Bit-unit chains work the same way in bits: every stream holds logical keys (for KV03 the
 * sort code {@code 0} first), so the query is made logical once and compared bit by bit.
 */
public final class Cascade {
    private final Catalog head;
    private final long k;

    /** Bytes of main-route samples the routing cache may decode (0: none). */
    private final long routingBytes;
    /**
     * The main samples of the top catalogs, decoded on the first lookup ({@link #router()}), so
     * a segment opened only to be merged or scanned never decodes them; {@link RoutingCache#NONE}
     * if none fit (or none are wanted). A plain field: threads racing on the first lookup may
     * each decode the same samples, and whichever result is seen is whole (its fields are final).
     */
    private RoutingCache routing;

    public Cascade(Catalog head) {
        this(head, dev.everett.api.ObjectStoreOptions.DEFAULT_ROUTING_CACHE_BYTES);
    }

    /** A cascade that decodes at most {@code routingBytes} of main-route samples (0: none). */
    public Cascade(Catalog head, long routingBytes) {
        this.head = head;
        this.k = head.index.groupSize();
        Corruption c = head.index.corruption();
        NativeReader natives = head.nativeReader;
        StreamUnits units = natives.framing().units();
        KeyForm form = natives.keyForm();
        this.probes = ThreadLocal.withInitial(() -> new Probe(c, units, form, natives.values()));
        if (head.virtualCount() > k) {
            // A well-formed catalog that is not a prepared head: the caller's mistake, not damage.
            throw new IllegalArgumentException("a query head must hold at most K = " + k + " occurrences, catalog "
                    + head.nativeId + "/" + head.indexId + " holds " + head.virtualCount() + " (prepare one with prepareHead)");
        }
        this.routingBytes = routingBytes;
        this.routing = routingBytes > 0 ? null : RoutingCache.NONE;
    }

    /** The decoded main samples (decoding them if no lookup has yet), or null if none are kept. */
    RoutingCache routing() {
        RoutingCache r = router();
        return r == RoutingCache.NONE ? null : r;
    }

    /** True once the routing cache is decided (at construction only when none is wanted). */
    boolean routingDecoded() {
        return routing != null;
    }

    /** The routing cache, decoded now if this is the first lookup to need it. */
    private RoutingCache router() {
        RoutingCache r = routing;
        if (r == null) {
            r = RoutingCache.of(head, routingBytes);
            if (r == null) {
                r = RoutingCache.NONE;
            }
            routing = r;
        }
        return r;
    }

    public Catalog head() {
        return head;
    }

    /** Per-query scratch: contexts and windows reused from catalog to catalog. */
    static final class Probe {
        final QueryContext lower;
        final QueryContext scan;
        final QueryContext[] pred;
        final FcStream.Window window = new FcStream.Window();
        final FcStream.Window fetch = new FcStream.Window();
        final long[] predOrdinal = new long[2];
        /** Where the match found at the current catalog lies, or -1. */
        long match;
        MemorySegment matchSegment;
        long matchAt;
        long matchLength;
        /** First native at or above Q within the current catalog's window (seek support). */
        long lowerBound;
        /** Decodes the value of a match (every native of a chain shares the policy). */
        final ValueCodec values;

        Probe(Corruption c, StreamUnits units, KeyForm form, ValueCodec values) {
            this.values = values;
            lower = new QueryContext(c, units, form);
            scan = new QueryContext(c, units, form);
            pred = new QueryContext[] {new QueryContext(c, units, form), new QueryContext(c, units, form)};
        }
    }

    /** Scratch for one query at a time per thread: contexts and windows are reused, not allocated. */
    private final ThreadLocal<Probe> probes;

    private Probe probe() {
        return probes.get();
    }

    /** Every native and leaf of any chain may hold the key: the mask of an unfiltered lookup. */
    static final long ALL_HOLDERS = -1L;

    /** Chains up to this deep can describe their possible holders in one {@code long} (two bits per catalog). */
    static final int MASK_DEPTH = 32;

    /** The newest record for {@code q[0 .. n)} across the chain. */
    public Lookup get(byte[] q, int n) {
        return get(q, n, ALL_HOLDERS);
    }

    /**
     * As {@link #get(byte[], int)}, told by key filters which objects may hold Q: bit 2d stands
     * for the native of the catalog d levels below the head, bit 2d + 1 for its secondary leaf
     * (chains deeper than {@value #MASK_DEPTH} pass {@link #ALL_HOLDERS}). A catalog whose native
     * cannot hold Q skips its native window (and the false-borrow fetch, which only finds a
     * native equal to Q); one whose leaf cannot skips the secondary route and leaf. The main
     * route is always followed, since it leads to the catalogs below; once no object at or below
     * the current catalog may hold Q the answer is ABSENT.
     */
    public Lookup get(byte[] q, int n, long holders) {
        Probe p = probe();
        p.lower.start(q, n);
        Catalog node = head;
        long g = 0;
        int d = 0;
        if (head.virtualCount() == 0) {
            return Lookup.absent();
        }
        RoutingCache r = router();
        int jump = r.jumpLevel(holders);
        if (jump >= 0) {
            // No catalog down to this one can hold Q: enter the cascade below it, at the group
            // its decoded samples choose.
            g = r.enter(jump, p.lower);
            if (g < 0) {
                return Lookup.absent();
            }
            node = r.catalog(jump).main;
            d = jump + 1;
        }
        for (; node != null; d++) {
            long here = d < MASK_DEPTH ? holders >>> (2 * d) : ALL_HOLDERS;
            if (here == 0) {
                return Lookup.absent();
            }
            boolean leaf = (here & 2) != 0;
            search(node, g, p, (here & 1) != 0, leaf);
            if (p.match >= 0) {
                return answer(node.nativeReader, p);
            }
            if (leaf && p.predOrdinal[IndexReader.SECONDARY] >= 0 && searchLeaf(node, p)) {
                return answer(node.secondary, p);
            }
            if (p.predOrdinal[IndexReader.MAIN] < 0) {
                return Lookup.absent();
            }
            g = descend(node, p);
            node = node.main;
        }
        return Lookup.absent();
    }

    /**
     * The ordinal of the first native record ≥ {@code q} in the chain's bottom catalog (the one
     * with no main target): the cascade's last main-route predecessor at each level picks the
     * group below, and the bottom window's scan stops at the first key ≥ Q. If the main route
     * ends above the bottom, Q precedes every key below and the answer is 0.
     */
    long lowerBound(byte[] q, int n) {
        Probe p = probe();
        p.lower.start(q, n);
        if (head.virtualCount() == 0) {
            return 0;
        }
        Catalog node = head;
        long g = 0;
        RoutingCache r = router();
        int jump = r.jumpLevel(ALL_HOLDERS);
        if (jump >= 0) {
            g = r.enter(jump, p.lower);
            if (g < 0) {
                return 0;
            }
            node = r.catalog(jump).main;
        }
        while (true) {
            search(node, g, p, true, true);
            if (node.main == null) {
                return p.lowerBound;
            }
            if (p.predOrdinal[IndexReader.MAIN] < 0) {
                return 0;
            }
            g = descend(node, p);
            node = node.main;
        }
    }

    /**
     * {@link #lowerBound} at every catalog of the main route in one descent: {@code out[d]} becomes
     * the ordinal of the first native record ≥ {@code q} in the catalog d levels below the head
     * (its record count if none). The window the cascade searches at each catalog holds that
     * record or ends just before it, so every catalog is answered on the way down; a catalog the
     * routing cache skips is a routing catalog (an empty native, answer 0), and once the main
     * route has no sample ≤ Q, Q precedes every key below (answer 0 there too).
     *
     * @param out one slot per catalog of the main route, head first
     */
    void lowerBounds(byte[] q, int n, long[] out) {
        java.util.Arrays.fill(out, 0);
        Probe p = probe();
        p.lower.start(q, n);
        if (head.virtualCount() == 0) {
            return;
        }
        Catalog node = head;
        long g = 0;
        int d = 0;
        RoutingCache r = router();
        int jump = r.jumpLevel(ALL_HOLDERS);
        if (jump >= 0) {
            g = r.enter(jump, p.lower);
            if (g < 0) {
                return;
            }
            node = r.catalog(jump).main;
            d = jump + 1;
        }
        for (; d < out.length; d++) {
            search(node, g, p, true, true);
            out[d] = p.lowerBound;
            if (node.main == null) {
                return;
            }
            if (p.predOrdinal[IndexReader.MAIN] < 0) {
                return;
            }
            g = descend(node, p);
            node = node.main;
        }
        throw node.index.corruption().at(IndexDirectory.inFile(IndexDirectory.TARGET_FLAGS), "main route deeper than the " + out.length + " catalogs the chain was opened with");
    }

    private long descend(Catalog node, Probe p) {
        long next = p.predOrdinal[IndexReader.MAIN];
        Corruption c = node.index.corruption();
        if (node.main == null) {
            throw c.at(IndexDirectory.inFile(IndexDirectory.TARGET_FLAGS), "main route sampled but the catalog has no main target");
        }
        if (next >= node.main.index.groups()) {
            throw c.at(IndexDirectory.inFile(IndexDirectory.BORROWED_COUNTS), "main route sample " + next + " names a group beyond its target");
        }
        p.lower.copyFrom(p.pred[IndexReader.MAIN]);
        return next;
    }

    private static Lookup answer(NativeReader natives, Probe p) {
        ValueCodec v = p.values;
        v.decode(p.matchSegment, natives.corruption(), p.matchAt, p.matchLength);
        return v.tombstone ? Lookup.tombstone() : Lookup.value(v.copyOrView(p.matchSegment));
    }

    /**
     * Searches group g of one catalog, starting from the context of the occurrence at g·K: the
     * main route, the secondary route if {@code leaf} (else it has no predecessor), and the
     * native window if {@code nativeMayHold} (else no native match is looked for).
     */
    void search(Catalog node, long g, Probe p, boolean nativeMayHold, boolean leaf) {
        IndexReader ix = node.index;
        Corruption c = ix.corruption();
        long v = ix.virtualCount();
        long first = g * k;
        if (g < 0 || first >= v) {
            throw c.at(IndexDirectory.inFile(IndexDirectory.VIRTUAL_COUNT), "group " + g + " lies beyond the " + v + " occurrences of " + ix.path());
        }
        long width = Math.min(k, v - first);
        IndexReader.Route main = ix.route(IndexReader.MAIN);
        IndexReader.Route sec = ix.route(IndexReader.SECONDARY);
        long pre0 = main.ranks().rank(g);
        long pre1 = sec.ranks().rank(g);
        long pop0 = main.ranks().classOf(g);
        long pop1 = sec.ranks().classOf(g);
        if (pre0 + pre1 > first || pop0 + pop1 > width || pre0 + pop0 > main.count() || pre1 + pop1 > sec.count()) {
            throw c.at(main.ranks().checkpointOffset(g >>> 7), "rank directories of group " + g + " disagree with the group and route sizes");
        }
        long nativeFirst = first - pre0 - pre1;
        long nativeLast = nativeFirst + width - pop0 - pop1;
        FcStream natives = node.nativeStream();
        if (nativeLast > natives.count()) {
            throw c.at(IndexDirectory.inFile(IndexDirectory.VIRTUAL_COUNT), "group " + g + " names natives beyond the " + natives.count() + " records of the native");
        }
        p.match = -1;
        p.lowerBound = nativeLast;
        routeWindow(ix, main, IndexReader.MAIN, g, pre0, pop0, p);
        if (leaf) {
            routeWindow(ix, sec, IndexReader.SECONDARY, g, pre1, pop1, p);
        } else {
            p.predOrdinal[IndexReader.SECONDARY] = -1;
        }
        if (!nativeMayHold) {
            return;
        }
        scanNatives(natives, nativeFirst, nativeLast, p.lower, p);
        for (int r = 0; r < 2; r++) {
            long i = p.predOrdinal[r];
            if (i >= 0 && p.pred[r].order == 0 && p.match < 0 && ix.falseBorrow(r, i)) {
                // The equal native precedes this window: natives come before equal borrows, so
                // it is the last native before the cut.
                if (nativeFirst <= 0) {
                    throw c.at(ix.route(r).flagsAt(), "false borrow with no native before the window");
                }
                natives.open(p.fetch, nativeFirst - 1);
                p.fetch.read();
                capture(natives, p.fetch.frame, nativeFirst - 1, p);
                p.lowerBound = nativeFirst - 1;
            }
        }
    }

    /** Scans natives [from, to) from {@code start}: records an equal key, stops at the first ≥ Q. */
    private void scanNatives(FcStream s, long from, long to, QueryContext start, Probe p) {
        if (from >= to) {
            return;
        }
        QueryContext ctx = p.scan;
        ctx.copyFrom(start);
        FcStream.Window w = p.window;
        s.open(w, from);
        MemorySegment seg = s.segment();
        for (long i = from; i < to; i++) {
            w.read();
            Frame f = w.frame;
            ctx.advance(seg, f.start, f.retained, f.suffixAt, f.suffixLength, f.retained + f.suffixLength);
            if (ctx.order >= 0) {
                if (ctx.order == 0) {
                    capture(s, f, i, p);
                }
                p.lowerBound = i;
                return;
            }
        }
    }

    private static void capture(FcStream s, Frame f, long i, Probe p) {
        p.match = i;
        p.matchSegment = s.segment();
        p.matchAt = f.valueAt;
        p.matchLength = f.valueLength;
    }

    /** Finds route r's last borrowed key ≤ Q at or before this window, with its context. */
    private void routeWindow(IndexReader ix, IndexReader.Route route, int r, long g, long pre, long pop, Probe p) {
        p.predOrdinal[r] = -1;
        if (pop > 0) {
            QueryContext ctx = p.scan;
            ctx.copyFrom(p.lower);
            FcStream s = route.stream();
            FcStream.Window w = p.window;
            s.open(w, pre);
            MemorySegment seg = s.segment();
            for (long i = pre; i < pre + pop; i++) {
                w.read();
                Frame f = w.frame;
                ctx.advance(seg, f.start, f.retained, f.suffixAt, f.suffixLength, f.retained + f.suffixLength);
                if (ctx.order > 0) {
                    break;
                }
                p.pred[r].copyFrom(ctx);
                p.predOrdinal[r] = i;
            }
        }
        if (p.predOrdinal[r] < 0 && pre > 0) {
            p.pred[r].copyFrom(p.lower);
            p.pred[r].predecessor(ix.cut(r, g), ix.cutOffset(r, g));
            p.predOrdinal[r] = pre - 1;
        }
    }

    /** Searches the secondary leaf's window below the secondary predecessor; true on a match. */
    private boolean searchLeaf(Catalog node, Probe p) {
        long t = p.predOrdinal[IndexReader.SECONDARY] * k;
        FcStream leaf = node.secondaryStream();
        Corruption c = node.index.corruption();
        if (t >= leaf.count()) {
            throw c.at(IndexDirectory.inFile(IndexDirectory.BORROWED_COUNTS + 8), "secondary sample names record " + t + " beyond the leaf's " + leaf.count());
        }
        p.match = -1;
        scanNatives(leaf, t, Math.min(t + k, leaf.count()), p.pred[IndexReader.SECONDARY], p);
        return p.match >= 0;
    }
}
