package dev.everett.integration;

import java.util.List;
import java.util.stream.Collectors;

/** Prints ops as Java source, so a shrunk divergence pastes into a test as it is. */
final class OpPrinter {
    private OpPrinter() {}

    static String bytes(byte[] b) {
        if (b == null) {
            return "null";
        }
        Long tag = b.length > 64 ? Bytes.patternTag(b) : null;
        if (tag != null) {
            return "Bytes.pattern(" + b.length + ", " + tag + "L)";
        }
        return "Bytes.unhex(\"" + Bytes.hex(b) + "\")";
    }

    static String java(Object op) {
        return switch (op) {
            case Op.Put p -> "new Op.Put(" + bytes(p.key()) + ", " + bytes(p.value()) + ")";
            case Op.Delete d -> "new Op.Delete(" + bytes(d.key()) + ")";
            case Op.SingleDelete d -> "new Op.SingleDelete(" + bytes(d.key()) + ")";
            case Op.Batch b -> "new Op.Batch(List.of(" + b.writes().stream().map(OpPrinter::java).collect(Collectors.joining(", ")) + "))";
            case Op.TakeSnapshot t -> "new Op.TakeSnapshot(" + t.id() + ")";
            case Op.ReleaseSnapshot t -> "new Op.ReleaseSnapshot(" + t.id() + ")";
            case Op.Get g -> "new Op.Get(" + g.snapshot() + ", " + bytes(g.key()) + ")";
            case Op.MultiGet g -> "new Op.MultiGet(" + g.snapshot() + ", List.of("
                    + g.keys().stream().map(OpPrinter::bytes).collect(Collectors.joining(", ")) + "))";
            case Op.Scan s -> "new Op.Scan(" + s.snapshot() + ", " + bytes(s.lower()) + ", " + bytes(s.upper()) + ", List.of("
                    + s.steps().stream().map(OpPrinter::java).collect(Collectors.joining(", ")) + "))";
            case Op.Flush f -> "new Op.Flush()";
            case Op.CompactAll c -> "new Op.CompactAll()";
            case Op.CompactRange c -> "new Op.CompactRange(" + bytes(c.lower()) + ", " + bytes(c.upper()) + ")";
            case Op.Reopen r -> "new Op.Reopen()";
            case Op.CompactionInvariance c -> "new Op.CompactionInvariance(" + bytes(c.lower()) + ", " + bytes(c.upper()) + ")";
            case Op.FingerprintCheck f -> "new Op.FingerprintCheck()";
            case Op.SeekToFirst s -> "new Op.SeekToFirst()";
            case Op.SeekToLast s -> "new Op.SeekToLast()";
            case Op.Seek s -> "new Op.Seek(" + bytes(s.target()) + ")";
            case Op.SeekForPrev s -> "new Op.SeekForPrev(" + bytes(s.target()) + ")";
            case Op.Next n -> "new Op.Next()";
            case Op.Prev p -> "new Op.Prev()";
            default -> throw new IllegalArgumentException("not an op: " + op);
        };
    }

    /** A JUnit method that replays {@code ops} on the named configuration (see {@link Systems#named}). */
    static String test(String methodName, String config, List<Op> ops) {
        StringBuilder sb = new StringBuilder();
        sb.append("    @Test\n    void ").append(methodName).append("() throws Exception {\n");
        sb.append("        List<Op> ops = List.of(\n");
        for (int i = 0; i < ops.size(); i++) {
            sb.append("                ").append(java(ops.get(i))).append(i + 1 < ops.size() ? ",\n" : ");\n");
        }
        sb.append("        Replay.assertEquivalent(\"").append(config).append("\", ops, tempDir);\n");
        sb.append("    }\n");
        return sb.toString();
    }
}
