package dev.everett.api;

/**
 * When a writer records a common value width (envelope flag bit 1, bytes 40–47) and so drops the
 * per-record value length. The choice changes the file's bytes, so it is an explicit writer
 * option; readers accept files either way.
 *
 * <ul>
 *   <li>{@link #policy()} (the default): only when the policy fixes the width; this is what
 *       Everett's streaming writer does.</li>
 *   <li>{@link #promised(long)}: the caller promises every encoded value has this width; a value
 *       of another width is refused.</li>
 *   <li>{@link #infer()}: record one if and only if every encoded value turns out to have the same
 *       width (width 0 for an empty file), as Everett's batch encoder does. The writer decides at
 *       {@code finish()} and rewrites its payload once when a common width was found.</li>
 * </ul>
 *
 * <p>KV03 natives (bit unit) follow Everett's KV03 encoder instead, under every rule: they record
 * the width every encoded value has, if there is one (0 for an empty file, or the promised width).
 * Their values delimit themselves, so this changes only the envelope and the Elias–Fano stride; a
 * promise is still checked value by value.
 *
 * @param kind    which rule
 * @param width   the promised width in policy units (only for {@link Kind#PROMISED})
 */
public record CommonWidthRule(Kind kind, long width) {
    public enum Kind { POLICY, PROMISED, INFER }

    public CommonWidthRule {
        if (kind == Kind.PROMISED ? width < 0 : width != 0) {
            throw new IllegalArgumentException("width " + width + " does not fit rule " + kind);
        }
    }

    public static CommonWidthRule policy() {
        return new CommonWidthRule(Kind.POLICY, 0);
    }

    public static CommonWidthRule promised(long width) {
        return new CommonWidthRule(Kind.PROMISED, width);
    }

    public static CommonWidthRule infer() {
        return new CommonWidthRule(Kind.INFER, 0);
    }
}
