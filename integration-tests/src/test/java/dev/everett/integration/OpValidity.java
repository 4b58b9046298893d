package dev.everett.integration;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether a sequence stays inside what RocksDB defines, so a shrunk sequence is still a fair test:
 * every SingleDelete finds its key present with exactly one Put since the previous SingleDelete,
 * a key that ever sees a SingleDelete never sees a Delete, and reads name live snapshots only
 * (snapshots die at release and at reopen). Iterator steps keep their rules by construction.
 */
final class OpValidity {
    private OpValidity() {}

    /** Null when valid, else the first broken rule with its op index. */
    static String check(List<Op> ops) {
        Set<String> singleDeleted = new HashSet<>();
        for (Op op : ops) {
            for (Op.Write w : writes(op)) {
                if (w instanceof Op.SingleDelete) {
                    singleDeleted.add(Bytes.hex(w.key()));
                }
            }
        }
        // Puts since the last SingleDelete, for the keys that see SingleDelete.
        Map<String, Integer> puts = new HashMap<>();
        Set<Integer> live = new HashSet<>();
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            for (Op.Write w : writes(op)) {
                String k = Bytes.hex(w.key());
                if (!singleDeleted.contains(k)) {
                    continue;
                }
                switch (w) {
                    case Op.Put p -> puts.merge(k, 1, Integer::sum);
                    case Op.Delete d -> {
                        return "op " + i + ": Delete of " + k + ", a key that also sees SingleDelete";
                    }
                    case Op.SingleDelete s -> {
                        if (puts.getOrDefault(k, 0) != 1) {
                            return "op " + i + ": SingleDelete of " + k + " after " + puts.getOrDefault(k, 0) + " Puts";
                        }
                        puts.put(k, 0);
                    }
                }
            }
            switch (op) {
                case Op.TakeSnapshot t -> {
                    if (!live.add(t.id())) {
                        return "op " + i + ": snapshot " + t.id() + " taken twice";
                    }
                }
                case Op.ReleaseSnapshot r -> {
                    if (!live.remove(r.id())) {
                        return "op " + i + ": release of dead snapshot " + r.id();
                    }
                }
                case Op.Get g -> {
                    if (g.snapshot() != Op.NO_SNAPSHOT && !live.contains(g.snapshot())) {
                        return "op " + i + ": read at dead snapshot " + g.snapshot();
                    }
                }
                case Op.MultiGet g -> {
                    if (g.snapshot() != Op.NO_SNAPSHOT && !live.contains(g.snapshot())) {
                        return "op " + i + ": read at dead snapshot " + g.snapshot();
                    }
                }
                case Op.Scan s -> {
                    if (s.snapshot() != Op.NO_SNAPSHOT && !live.contains(s.snapshot())) {
                        return "op " + i + ": scan at dead snapshot " + s.snapshot();
                    }
                }
                case Op.Reopen r -> live.clear();
                default -> {}
            }
        }
        return null;
    }

    /**
     * The sequence with whatever breaks a rule dropped: SingleDeletes without exactly one Put before
     * them, Deletes of keys that see SingleDelete, reads and releases of dead snapshots, batches left
     * empty. Shrinking removes chunks and then repairs, so a removed Put takes its SingleDelete along.
     */
    static List<Op> repair(List<Op> ops) {
        Set<String> singleDeleted = new HashSet<>();
        for (Op op : ops) {
            for (Op.Write w : writes(op)) {
                if (w instanceof Op.SingleDelete) {
                    singleDeleted.add(Bytes.hex(w.key()));
                }
            }
        }
        Map<String, Integer> puts = new HashMap<>();
        Set<Integer> live = new HashSet<>();
        List<Op> out = new ArrayList<>(ops.size());
        for (Op op : ops) {
            List<Op.Write> kept = new ArrayList<>();
            for (Op.Write w : writes(op)) {
                String k = Bytes.hex(w.key());
                boolean keep = switch (w) {
                    case Op.Put p -> {
                        if (singleDeleted.contains(k)) {
                            puts.merge(k, 1, Integer::sum);
                        }
                        yield true;
                    }
                    case Op.Delete d -> !singleDeleted.contains(k);
                    case Op.SingleDelete sd -> {
                        if (puts.getOrDefault(k, 0) == 1) {
                            puts.put(k, 0);
                            yield true;
                        }
                        yield false;
                    }
                };
                if (keep) {
                    kept.add(w);
                }
            }
            Op fixed = switch (op) {
                case Op.Write w -> kept.isEmpty() ? null : op;
                case Op.Batch b -> kept.isEmpty() ? null : kept.size() == b.writes().size() ? b : new Op.Batch(List.copyOf(kept));
                case Op.TakeSnapshot t -> live.add(t.id()) ? op : null;
                case Op.ReleaseSnapshot r -> live.remove(r.id()) ? op : null;
                case Op.Get g -> g.snapshot() == Op.NO_SNAPSHOT || live.contains(g.snapshot()) ? op : null;
                case Op.MultiGet g -> g.snapshot() == Op.NO_SNAPSHOT || live.contains(g.snapshot()) ? op : null;
                case Op.Scan sc -> sc.snapshot() == Op.NO_SNAPSHOT || live.contains(sc.snapshot()) ? op : null;
                case Op.Reopen r -> {
                    live.clear();
                    yield op;
                }
                default -> op;
            };
            if (fixed != null) {
                out.add(fixed);
            }
        }
        return out;
    }

    static List<Op.Write> writes(Op op) {
        return switch (op) {
            case Op.Write w -> List.of(w);
            case Op.Batch b -> b.writes();
            default -> List.of();
        };
    }
}
