package dev.everett.merge;

/**
 * A tournament (loser) tree over the merge inputs that carries LCPs, so most matches are decided
 * without reading a key unit. Every input keeps {@code lcp[i]}, the units its current key shares
 * with the reference key (the key most recently taken out). Two keys that are both greater than
 * the reference and share different amounts of it are ordered by those amounts alone: the one
 * sharing more is smaller. Only on a tie are units compared, from the shared length on, and the
 * loser then records its LCP with the winner. Along the winner's path every loser lost to the
 * winner, so once the winner is taken out all their LCPs are relative to the new reference.
 *
 * <p>Equal keys are ordered by input index, so the oldest input comes out first and equal keys
 * appear in chronological order.
 */
final class LoserTree {
    private final SpanKey[] inputs;
    final long[] lcp;
    /** tree[0] is the overall winner; tree[1 .. k) hold the loser of each internal match. */
    private final int[] tree;
    private final int k;
    private final long[] common = new long[1];

    LoserTree(SpanKey[] inputs) {
        this.inputs = inputs;
        this.k = inputs.length;
        this.lcp = new long[k];
        this.tree = new int[Math.max(1, k)];
        int[] winners = new int[2 * k];
        for (int i = 0; i < k; i++) {
            winners[k + i] = i;
        }
        for (int node = k - 1; node >= 1; node--) {
            int a = winners[2 * node];
            int b = winners[2 * node + 1];
            int w = play(a, b);
            winners[node] = w;
            tree[node] = w == a ? b : a;
        }
        tree[0] = k == 1 ? 0 : winners[1];
    }

    /** The input holding the smallest key (possibly at its end: check {@link SpanKey#eof()}). */
    int winner() {
        return tree[0];
    }

    /** Replays the winner's path after its input advanced (its lcp[] set by the caller). */
    void replay() {
        int candidate = tree[0];
        for (int node = (candidate + k) >>> 1; node >= 1; node >>>= 1) {
            int other = tree[node];
            int w = play(candidate, other);
            if (w != candidate) {
                tree[node] = candidate;
                candidate = w;
            }
        }
        tree[0] = candidate;
    }

    /** Plays a against b and returns the winner; the loser's lcp becomes its LCP with the winner. */
    private int play(int a, int b) {
        SpanKey x = inputs[a];
        SpanKey y = inputs[b];
        if (y.eof()) {
            return a;
        }
        if (x.eof()) {
            return b;
        }
        if (lcp[a] != lcp[b]) {
            return lcp[a] > lcp[b] ? a : b;
        }
        int c = x.compareFrom(y, lcp[a], common);
        boolean aWins = c < 0 || (c == 0 && a < b);
        if (aWins) {
            lcp[b] = common[0];
            return a;
        }
        lcp[a] = common[0];
        return b;
    }
}
