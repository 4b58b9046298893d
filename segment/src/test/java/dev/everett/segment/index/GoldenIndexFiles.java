package dev.everett.segment.index;

import dev.everett.api.CommonWidthRule;
import dev.everett.api.Lookup;
import dev.everett.api.ObjectId;
import dev.everett.api.Policy;
import dev.everett.api.SegmentFormat;
import dev.everett.api.ValueGrammar;
import dev.everett.segment.natives.NativeReader;
import dev.everett.segment.natives.NativeWriter;
import dev.everett.segment.objects.OpenObjects;
import dev.everett.segment.testing.GoldenFiles;
import dev.everett.segment.testing.Rec;
import dev.everett.segment.testing.SegmentFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The committed golden IX03 chains under {@code src/test/resources/golden-ix03/}: how they are
 * generated, and how the manifest, the objects and the record lists are read back.
 *
 * <p>A chain is a set of Everett objects with fixed identities: natives {@code CHAIN-ROLE.kv}
 * (with their records in {@code CHAIN-ROLE.jsonl}, the format of the KV02 golden files, see
 * {@link GoldenFiles}) and indexes {@code CHAIN-ROLE.index}. Identities are serials, {@code %032x}
 * of 1, 2, 3, … in the order the objects were created, so the manifest order is a valid build
 * order. Routing catalogs made by {@link OpenObjects#prepareHead} share one empty native
 * {@code CHAIN-E.kv} and are named {@code R1}, {@code R2}, … bottom-up.
 *
 * <p>{@code manifest.jsonl} holds, per chain, one {@code "kind":"chain"} line (policy, head pair,
 * prose) followed by one line per object in build order: natives with their record count and
 * size, indexes with the identities they record (own native, main target pair, secondary) and
 * their V, borrowed counts and size. The tests need nothing but the committed files; the
 * generators below only matter when regenerating ({@link GoldenIndexTest} with
 * {@code -Deverett.golden.regenerate=true}); they are deterministic.
 */
final class GoldenIndexFiles {
    static final String MANIFEST = "manifest.jsonl";
    private static final String EMPTY_ROLE = "E";

    private GoldenIndexFiles() {
    }

    /** The committed directory, in the module's sources (Surefire sets {@code basedir}). */
    static Path dir() {
        Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        return base.resolve("src/test/resources/golden-ix03");
    }

    // ---------------------------------------------------------------------------------------
    // The model read back from the manifest.

    public enum Kind { NATIVE, INDEX }

    /** One object of a chain as the manifest describes it. */
    record Obj(String chain, String role, Kind kind, ObjectId id, long bytes, long records,
               ObjectId nativeId, ObjectId mainNative, ObjectId mainIndex, ObjectId secondary,
               long virtualCount, long mainCount, long secondaryCount) {
        String file() {
            return chain + "-" + role + (kind == Kind.NATIVE ? ".kv" : ".index");
        }

        Path jsonl(Path dir) {
            return dir.resolve(chain + "-" + role + ".jsonl");
        }

        /** Where the object lives in an object store rooted at {@code root}. */
        Path storePath(Path root) {
            return id.path(root, kind == Kind.NATIVE ? ".kv" : ".index");
        }

        @Override
        public String toString() {
            return file();
        }
    }

    /** One level of a chain, head first: its native records and its secondary leaf's (or null). */
    record Level(Obj index, Obj nativeObj, Obj secondaryObj, TreeMap<byte[], Rec> natives, TreeMap<byte[], Rec> secondary) {
    }

    /** A chain: policy, head pair, objects in build order, and the records of every native. */
    record Chain(String name, Policy policy, ObjectId headNative, ObjectId headIndex, String about, List<Obj> objects,
                 Map<ObjectId, List<Rec>> records, List<Level> levels) {
        Chain(String name, Policy policy, ObjectId headNative, ObjectId headIndex, String about, List<Obj> objects,
              Map<ObjectId, List<Rec>> records) {
            this(name, policy, headNative, headIndex, about, objects, records, levels(headIndex, objects, records));
        }

        Obj object(ObjectId id, Kind kind) {
            return object(objects, id, kind);
        }

        private static Obj object(List<Obj> objects, ObjectId id, Kind kind) {
            for (Obj o : objects) {
                if (o.id().equals(id) && o.kind() == kind) {
                    return o;
                }
            }
            throw new IllegalArgumentException("the chain has no " + kind + " " + id);
        }

        List<Obj> indexes() {
            return objects.stream().filter(o -> o.kind() == Kind.INDEX).toList();
        }

        /** The catalogs from the head down the main route. */
        private static List<Level> levels(ObjectId headIndex, List<Obj> objects, Map<ObjectId, List<Rec>> records) {
            List<Level> out = new ArrayList<>();
            ObjectId at = headIndex;
            while (at != null) {
                Obj ix = object(objects, at, Kind.INDEX);
                Obj n = object(objects, ix.nativeId(), Kind.NATIVE);
                Obj s = ix.secondary() == null ? null : object(objects, ix.secondary(), Kind.NATIVE);
                out.add(new Level(ix, n, s, map(records.get(n.id())), s == null ? null : map(records.get(s.id()))));
                at = ix.mainIndex();
                if (out.size() > objects.size()) {
                    throw new IllegalArgumentException("the manifest's chain has a cycle");
                }
            }
            return List.copyOf(out);
        }

        /** The replacement-read answer: per level head first, its native, then its secondary leaf. */
        Rec model(byte[] key) {
            for (Level l : levels()) {
                Rec r = l.natives().get(key);
                if (r == null && l.secondary() != null) {
                    r = l.secondary().get(key);
                }
                if (r != null) {
                    return r;
                }
            }
            return null;
        }

        /**
         * Every key of every native in the chain, then misses: the empty key, each key extended by
         * 00 and by FF, shortened by one byte, and with its last byte bumped. Sorted, no repeats.
         */
        List<byte[]> queries() {
            TreeSet<byte[]> q = new TreeSet<>(Arrays::compareUnsigned);
            q.add(new byte[0]);
            for (List<Rec> recs : records.values()) {
                for (Rec r : recs) {
                    byte[] k = r.key();
                    q.add(k);
                    byte[] z = Arrays.copyOf(k, k.length + 1);
                    q.add(z);
                    byte[] f = Arrays.copyOf(k, k.length + 1);
                    f[k.length] = (byte) 0xFF;
                    q.add(f);
                    if (k.length > 0) {
                        q.add(Arrays.copyOf(k, k.length - 1));
                        byte[] bumped = k.clone();
                        bumped[k.length - 1]++;
                        q.add(bumped);
                    }
                }
            }
            return List.copyOf(q);
        }

        /** Copies every object of the chain from {@code dir} into a store rooted at {@code root}. */
        void install(Path dir, Path root) throws IOException {
            for (Obj o : objects) {
                Path p = o.storePath(root);
                Files.createDirectories(p.getParent());
                Files.copy(dir.resolve(o.file()), p, StandardCopyOption.REPLACE_EXISTING);
            }
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Whether a lookup answered what the model says. */
    static boolean agrees(Lookup got, Rec expected) {
        if (expected == null) {
            return got.status() == Lookup.Status.ABSENT;
        }
        if (expected.tombstone()) {
            return got.status() == Lookup.Status.TOMBSTONE;
        }
        return got.status() == Lookup.Status.VALUE && Arrays.equals(expected.value(), got.valueBytes());
    }

    static String describe(Lookup got) {
        return switch (got.status()) {
            case ABSENT -> "absent";
            case TOMBSTONE -> "tombstone";
            case VALUE -> "value " + java.util.HexFormat.of().formatHex(got.valueBytes());
        };
    }

    static String describe(Rec expected) {
        return expected == null ? "absent" : expected.tombstone() ? "tombstone" : "value " + java.util.HexFormat.of().formatHex(expected.value());
    }

    private static TreeMap<byte[], Rec> map(List<Rec> recs) {
        TreeMap<byte[], Rec> m = new TreeMap<>(Arrays::compareUnsigned);
        for (Rec r : recs) {
            m.put(r.key(), r);
        }
        return m;
    }

    /** Every chain of the manifest, with the records of its natives. */
    static List<Chain> chains(Path dir) {
        try {
            List<Chain> out = new ArrayList<>();
            Map<String, Object> head = null;
            List<Obj> objects = new ArrayList<>();
            for (String line : Files.readAllLines(dir.resolve(MANIFEST), StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                Map<String, Object> m = GoldenFiles.parseObject(line);
                if ("chain".equals(m.get("kind"))) {
                    if (head != null) {
                        out.add(chain(dir, head, objects));
                    }
                    head = m;
                    objects = new ArrayList<>();
                } else {
                    objects.add(obj(m));
                }
            }
            if (head != null) {
                out.add(chain(dir, head, objects));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Chain chain(Path dir, Map<String, Object> m, List<Obj> objects) throws IOException {
        Policy p = GoldenFiles.policy(m);
        Map<ObjectId, List<Rec>> records = new HashMap<>();
        for (Obj o : objects) {
            if (o.kind() == Kind.NATIVE) {
                records.put(o.id(), GoldenFiles.readRecords(o.jsonl(dir)));
            }
        }
        return new Chain((String) m.get("chain"), p, id(m.get("headNative")), id(m.get("headIndex")), (String) m.get("about"),
                List.copyOf(objects), records);
    }

    private static Obj obj(Map<String, Object> m) {
        Kind kind = Kind.valueOf(((String) m.get("kind")).toUpperCase());
        String chain = (String) m.get("chain");
        String role = (String) m.get("role");
        if (kind == Kind.NATIVE) {
            return new Obj(chain, role, kind, id(m.get("id")), (Long) m.get("bytes"), (Long) m.get("records"),
                    null, null, null, null, 0, 0, 0);
        }
        return new Obj(chain, role, kind, id(m.get("id")), (Long) m.get("bytes"), 0, id(m.get("native")),
                id(m.get("mainNative")), id(m.get("mainIndex")), id(m.get("secondary")),
                (Long) m.get("virtualCount"), (Long) m.get("mainCount"), (Long) m.get("secondaryCount"));
    }

    private static ObjectId id(Object hex) {
        return hex == null ? null : ObjectId.parse((String) hex);
    }

    // ---------------------------------------------------------------------------------------
    // The table of golden chains. Add a line here, then regenerate.

    private static final Policy BYTES = Policy.defaultBytes();
    /** Everett's string policy: KV03 natives, bit-unit borrowed streams, EG0 backspaces. */
    private static final Policy KV03 = Policy.stringPolicy();
    /** The string policy writing KV02 natives with bit units. */
    private static final Policy KV02_BIT = Policy.stringPolicy().withFormat(SegmentFormat.KV02);

    /** Builds one chain's objects in a store and returns its head. */
    private interface Body {
        Catalog build(Builder b) throws IOException;
    }

    private record Spec(String name, Policy policy, String about, Body body) {
    }

    private static List<Spec> specs() {
        return List.of(
                new Spec("terminal", BYTES,
                        "a terminal index over a 12-record native (K = W = 15): V ≤ K, so it is its own head",
                        GoldenIndexFiles::terminal),
                new Spec("worked-example", BYTES.withGrammar(ValueGrammar.RAW).withGroupSize(3).withBlockWidth(2),
                        "the IX03 worked example (docs/format.md): T terminal, H over main T and secondary S, routing head R1 over the empty native E",
                        GoldenIndexFiles::workedExample),
                new Spec("main-target", BYTES.withGroupSize(7).withBlockWidth(4),
                        "A (24 records) over main target B (61 records, terminal; V(A) = 24 + 9), overlapping keys, tombstones, false borrows; one routing head",
                        GoldenIndexFiles::mainTarget),
                new Spec("main-secondary", BYTES.withGroupSize(3).withBlockWidth(3),
                        "A over main target B and secondary leaf S (K = 3, W = 3); B holds the empty key; routing heads above A",
                        GoldenIndexFiles::mainSecondary),
                new Spec("routing", BYTES.withGroupSize(3).withBlockWidth(2),
                        "routing heads over a main B (43 records, terminal) and a secondary S (9): one empty catalog R1 over both (V = 15 + 3), then empty main-only parents R2, R3, all sharing the empty native E",
                        GoldenIndexFiles::routing),
                new Spec("empty", BYTES,
                        "nothing at all: one routing catalog with V = 0 over the empty native (the smallest body, 496 bytes)",
                        b -> b.head(null, null)),
                new Spec("k7-partial", BYTES.withGroupSize(7).withBlockWidth(5),
                        "K = 7 (3-bit classes straddling words), W = 5: B has 920 records (132 groups, two checkpoints, last group of 3), A (300) over B and secondary S (50) with V = 440 (63 groups, last of 6); routing R1–R3",
                        b -> {
                            List<byte[]> keys = universe(1400, 11, 6);
                            Catalog bottom = b.index("B", b.write("B", subset(keys, 12, 0.66, 0.1, 920)), null, null);
                            ObjectId s = b.write("S", subset(keys, 13, 0.05, 0.2, 50));
                            Catalog top = b.index("A", b.write("A", subset(keys, 14, 0.21, 0.2, 300)), bottom, s);
                            return b.head(top, null);
                        }),
                new Spec("sparse-route", BYTES.withGrammar(ValueGrammar.RAW).withGroupSize(3).withBlockWidth(1),
                        "W = 1, K = 3: B holds 11,730 two-byte keys (RAW, empty values) and at ordinal 6,000 one key of 17,000 bytes; "
                                + "R1 borrows every third of them (3,910 keys, the long one at ordinal 2,000), so its main Elias–Fano has a sparse group; "
                                + "R2–R8 route above it without the long key",
                        b -> {
                            Catalog bottom = b.index("B", b.write("B", sparseRoute()), null, null);
                            Catalog head = b.head(bottom, null);
                            Catalog r1 = head;
                            while (r1.main != bottom) {
                                r1 = r1.main;
                            }
                            if (r1.index.directory().lengths()[4] == 0) {
                                throw new IllegalStateException("R1's main Elias–Fano has no sparse group");
                            }
                            return head;
                        }),
                // Bit units: the same records and shapes over KV03 natives (Everett's string
                // policy), and one chain over KV02 natives with bit units.
                new Spec("kv03-terminal", KV03,
                        "KV03 (string policy): terminal's 12 records; the borrowed streams are empty, the native is bit-coded",
                        GoldenIndexFiles::terminal),
                new Spec("kv03-main-target", KV03.withGroupSize(7).withBlockWidth(4),
                        "KV03: main-target's records (A over B, tombstones, false borrows): bit-unit borrowed keys are the sort code 0 then the key bits",
                        GoldenIndexFiles::mainTarget),
                new Spec("kv03-main-secondary", KV03.withGroupSize(3).withBlockWidth(3),
                        "KV03: main-secondary's records; B holds the empty key, whose logical key is the code alone; A over B and secondary S; routing heads",
                        GoldenIndexFiles::mainSecondary),
                new Spec("kv03-routing", KV03.withGroupSize(3).withBlockWidth(2),
                        "KV03: routing's records; empty-native routing catalogs (a KV03 native with no records) over a main and a secondary",
                        GoldenIndexFiles::routing),
                new Spec("kv02bit-main-secondary", KV02_BIT.withGroupSize(3).withBlockWidth(3),
                        "KV02 with bit units (string policy, KV02 format): main-secondary's records; borrowed keys are the key bits without a code",
                        GoldenIndexFiles::mainSecondary));
    }

    private static Catalog terminal(Builder b) throws IOException {
        return b.index("N", b.write("N", mixed(12, 1, 0.25)), null, null);
    }

    private static Catalog mainTarget(Builder b) throws IOException {
        List<byte[]> keys = universe(90, 2, 4);
        Catalog bottom = b.index("B", b.write("B", subset(keys, 2, 0.66, 0.2)), null, null);
        Catalog top = b.index("A", b.write("A", subset(keys, 3, 0.22, 0.3)), bottom, null);
        return b.head(top, null);
    }

    private static Catalog mainSecondary(Builder b) throws IOException {
        List<byte[]> keys = universe(40, 4, 4);
        keys.add(0, new byte[0]);
        Catalog bottom = b.index("B", b.write("B", subset(keys, 5, 0.5, 0.2)), null, null);
        ObjectId s = b.write("S", subset(keys, 6, 0.25, 0.2));
        Catalog top = b.index("A", b.write("A", subset(keys, 7, 0.2, 0.2)), bottom, s);
        return b.head(top, null);
    }

    private static Catalog routing(Builder b) throws IOException {
        List<byte[]> keys = universe(60, 8, 3);
        Catalog bottom = b.index("B", b.write("B", subset(keys, 9, 0.67, 0.1)), null, null);
        ObjectId s = b.write("S", subset(keys, 10, 0.2, 0.1));
        return b.head(bottom, s);
    }

    /** Two-byte big-endian keys 0 … 11,729, the key of ordinal 6,000 extended to 17,000 bytes (w = 2, so its jump spans 4,250 high bits). */
    private static List<Rec> sparseRoute() {
        List<Rec> out = new ArrayList<>();
        for (int i = 0; i < 11_730; i++) {
            byte[] k = {(byte) (i >>> 8), (byte) i};
            if (i == 6_000) {
                k = Arrays.copyOf(k, 17_000);
                for (int j = 2; j < k.length; j++) {
                    k[j] = (byte) (j * 31 + 7);
                }
            }
            out.add(new Rec(k, new byte[0]));
        }
        return out;
    }

    /** The IX03 worked example of docs/format.md, with identities 1–7. */
    private static Catalog workedExample(Builder b) throws IOException {
        ObjectId t = b.write("T", List.of(Rec.of("a", "1"), Rec.of("aa", "2"), Rec.of("ab", "3"), Rec.of("b", "4"), Rec.of("d", "5")));
        Catalog tc = b.index("T", t, null, null);
        ObjectId s = b.write("S", List.of(Rec.of("b", "x"), Rec.of("c", "y"), Rec.of("e", "z"), Rec.of("f", "w")));
        ObjectId h = b.write("H", List.of(Rec.of("b", "9"), Rec.of("cb", "8")));
        Catalog hc = b.index("H", h, tc, s);
        return b.head(hc, null);
    }

    // ---------------------------------------------------------------------------------------
    // Record generators.

    /** {@code n} distinct keys of 1 to {@code maxLength} bytes over a four-letter alphabet (many shared prefixes). */
    private static List<byte[]> universe(int n, long seed, int maxLength) {
        Random r = new Random(seed);
        TreeSet<byte[]> keys = new TreeSet<>(Arrays::compareUnsigned);
        int guard = 0;
        while (keys.size() < n && guard++ < 100 * n) {
            byte[] k = new byte[1 + r.nextInt(maxLength)];
            for (int i = 0; i < k.length; i++) {
                k[i] = (byte) "abcd".charAt(r.nextInt(4));
            }
            keys.add(k);
        }
        if (keys.size() < n) {
            throw new IllegalStateException("the alphabet cannot give " + n + " keys of at most " + maxLength + " bytes");
        }
        return new ArrayList<>(keys);
    }

    private static List<Rec> subset(List<byte[]> keys, long seed, double p, double tombstones) {
        return subset(keys, seed, p, tombstones, -1);
    }

    /** Each key with probability p (exactly {@code count} keys if count ≥ 0), a fraction of them tombstones. */
    private static List<Rec> subset(List<byte[]> keys, long seed, double p, double tombstones, int count) {
        Random r = new Random(seed);
        List<byte[]> chosen = new ArrayList<>();
        if (count >= 0) {
            List<byte[]> shuffled = new ArrayList<>(keys);
            java.util.Collections.shuffle(shuffled, r);
            chosen.addAll(shuffled.subList(0, count));
            chosen.sort(Arrays::compareUnsigned);
        } else {
            for (byte[] k : keys) {
                if (r.nextDouble() < p) {
                    chosen.add(k);
                }
            }
        }
        List<Rec> out = new ArrayList<>();
        for (byte[] k : chosen) {
            byte[] v = new byte[r.nextInt(4)];
            r.nextBytes(v);
            out.add(new Rec(k, r.nextDouble() < tombstones ? null : v));
        }
        return out;
    }

    private static List<Rec> mixed(int n, long seed, double tombstones) {
        return subset(universe(n, seed, 3), seed + 100, 1.0, tombstones);
    }

    // ---------------------------------------------------------------------------------------
    // Regeneration.

    /** Builds chains in one store with serial identities and names what it builds. */
    private static final class Builder {
        final OpenObjects store;
        final Policy policy;
        long serial;
        final Map<ObjectId, String> roles = new HashMap<>();
        final Map<ObjectId, List<Rec>> records = new HashMap<>();

        Builder(Path root, Policy policy) {
            this.store = new OpenObjects(root, policy);
            this.policy = policy;
            store.identities(this::next);
        }

        ObjectId next() {
            return new ObjectId(0, ++serial);
        }

        ObjectId write(String role, List<Rec> recs) throws IOException {
            ObjectId id = next();
            try (NativeWriter w = store.newNative(id, CommonWidthRule.policy())) {
                SegmentFixtures.putAll(w, recs);
                w.finish();
            }
            roles.put(id, role);
            records.put(id, recs);
            return id;
        }

        Catalog index(String role, ObjectId nativeId, Catalog main, ObjectId secondary) throws IOException {
            Catalog c = store.index(nativeId, main, secondary, next());
            roles.put(c.indexId, role);
            return c;
        }

        /** {@link OpenObjects#prepareHead}; names the empty native E and the routing catalogs R1, R2, … bottom-up. */
        Catalog head(Catalog main, ObjectId secondary) throws IOException {
            Catalog head = store.prepareHead(main, secondary);
            List<Catalog> routes = new ArrayList<>();
            for (Catalog c = head; c != null && !roles.containsKey(c.indexId); c = c.main) {
                routes.add(0, c);
            }
            for (int i = 0; i < routes.size(); i++) {
                Catalog c = routes.get(i);
                roles.put(c.indexId, "R" + (i + 1));
                roles.putIfAbsent(c.nativeId, EMPTY_ROLE);
                records.putIfAbsent(c.nativeId, List.of());
            }
            return head;
        }
    }

    /** Rewrites every golden chain and the manifest, and removes files the table no longer names. */
    static void regenerate(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> manifest = new ArrayList<>();
        List<String> files = new ArrayList<>(List.of(MANIFEST, "README.md"));
        Path scratch = Files.createTempDirectory("everett-golden-ix03");
        try {
            for (Spec s : specs()) {
                Path root = scratch.resolve(s.name());
                Builder b = new Builder(root, s.policy());
                try (b.store) {
                    Catalog head = s.body().build(b);
                    List<Catalog> catalogs = new ArrayList<>();
                    for (Catalog c = head; c != null; c = c.main) {
                        catalogs.add(c);
                    }
                    manifest.add(line(chainLine(s, head)));
                    // Every object the chain uses, in identity (= creation = build) order.
                    TreeMap<ObjectId, Object[]> objects = new TreeMap<>(Comparator.comparing(ObjectId::low));
                    for (Catalog c : catalogs) {
                        objects.put(c.nativeId, new Object[] {Kind.NATIVE, c.nativeReader});
                        objects.put(c.indexId, new Object[] {Kind.INDEX, c});
                        if (c.secondary != null) {
                            objects.put(c.secondaryId, new Object[] {Kind.NATIVE, c.secondary});
                        }
                    }
                    for (var e : objects.entrySet()) {
                        ObjectId id = e.getKey();
                        String role = b.roles.get(id);
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("chain", s.name());
                        if (e.getValue()[0] == Kind.NATIVE) {
                            NativeReader r = (NativeReader) e.getValue()[1];
                            String file = s.name() + "-" + role + ".kv";
                            Files.copy(b.store.nativePath(id), dir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
                            String jsonl = s.name() + "-" + role + ".jsonl";
                            Files.writeString(dir.resolve(jsonl), GoldenFiles.toJsonLines(b.records.get(id)));
                            files.add(file);
                            files.add(jsonl);
                            m.put("kind", "native");
                            m.put("role", role);
                            m.put("id", id.hex());
                            m.put("records", r.recordCount());
                            m.put("bytes", Files.size(b.store.nativePath(id)));
                        } else {
                            Catalog c = (Catalog) e.getValue()[1];
                            String file = s.name() + "-" + role + ".index";
                            Files.copy(b.store.indexPath(id), dir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
                            files.add(file);
                            IndexDirectory d = c.index.directory();
                            m.put("kind", "index");
                            m.put("role", role);
                            m.put("id", id.hex());
                            m.put("native", c.nativeId.hex());
                            m.put("mainNative", c.main == null ? null : c.main.nativeId.hex());
                            m.put("mainIndex", c.main == null ? null : c.main.indexId.hex());
                            m.put("secondary", c.secondary == null ? null : c.secondaryId.hex());
                            m.put("virtualCount", d.virtualCount());
                            m.put("mainCount", d.counts()[0]);
                            m.put("secondaryCount", d.counts()[1]);
                            m.put("bytes", Files.size(b.store.indexPath(id)));
                        }
                        manifest.add(line(m));
                    }
                }
            }
        } finally {
            try (Stream<Path> walk = Files.walk(scratch)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        Files.writeString(dir.resolve(MANIFEST), String.join("\n", manifest) + "\n");
        try (Stream<Path> list = Files.list(dir)) {
            for (Path p : list.toList()) {
                if (!files.contains(p.getFileName().toString())) {
                    Files.delete(p);
                }
            }
        }
    }

    private static Map<String, Object> chainLine(Spec s, Catalog head) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("chain", s.name());
        m.put("kind", "chain");
        GoldenFiles.putPolicy(m, s.policy());
        m.put("widthRule", "policy");
        m.put("headNative", head.nativeId.hex());
        m.put("headIndex", head.indexId.hex());
        m.put("about", s.about());
        return m;
    }

    private static String line(Map<String, Object> m) {
        return GoldenFiles.line(m);
    }
}
