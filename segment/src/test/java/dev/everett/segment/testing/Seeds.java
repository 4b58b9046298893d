package dev.everett.segment.testing;

import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestWatcher;
import org.opentest4j.TestAbortedException;

/**
 * Seeded randomness for tests that can be replayed. A test class adds
 * {@code @ExtendWith(Seeds.class)} and takes a {@link Random} parameter; the generator is seeded
 * from the system property {@value #PROPERTY} when it is set and non-empty (the parent pom passes
 * {@code -Deverett.seed} through to surefire, empty when unset), else from a freshly drawn seed.
 *
 * <p>When such a test fails, the seed is attached to the failure as a suppressed exception (so it
 * travels with the stack trace into the surefire report) and printed to standard error as
 * {@code everett.seed=<seed> (replay with -Deverett.seed=<seed>)}. The same seed makes the test
 * draw the same values again, as long as it draws them in the same order.
 *
 * <p>Code that is not a JUnit test can call {@link #seed()} and {@link #replayHint(long)} itself.
 */
public final class Seeds implements ParameterResolver, TestExecutionExceptionHandler, TestWatcher {
    static final String PROPERTY = "everett.seed";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(Seeds.class);
    private static final String KEY = "seed";

    /** The seed from {@value #PROPERTY} if set and non-empty, else a new random one. */
    static long seed() {
        String fixed = System.getProperty(PROPERTY, "").strip();
        if (fixed.isEmpty()) {
            return ThreadLocalRandom.current().nextLong();
        }
        try {
            return Long.parseLong(fixed);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + PROPERTY + " must be a decimal long, got \"" + fixed + "\"", e);
        }
    }

    /** The line a failure reports so the run can be repeated. */
    static String replayHint(long seed) {
        return PROPERTY + "=" + seed + " (replay with -D" + PROPERTY + "=" + seed + ")";
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Random.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return new Random(seedOf(context));
    }

    /** One seed per test, drawn on first use, so every Random the test asks for replays alike. */
    private static long seedOf(ExtensionContext context) {
        return context.getStore(NAMESPACE).computeIfAbsent(KEY, k -> seed(), Long.class);
    }

    /** The seed the test used, or null if it asked for none. */
    private static Long usedSeed(ExtensionContext context) {
        return context.getStore(NAMESPACE).get(KEY, Long.class);
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        Long seed = usedSeed(context);
        // An aborted test (a failed assumption) is not a failure worth replaying.
        if (seed != null && !(failure instanceof TestAbortedException)) {
            failure.addSuppressed(new Replay(seed));
        }
        throw failure;
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        Long seed = usedSeed(context);
        if (seed != null) {
            System.err.println(context.getRequiredTestClass().getSimpleName() + "." + context.getDisplayName() + " failed: " + replayHint(seed));
        }
    }

    /** Carries the replay line on a failure; it has no stack trace of its own. */
    static final class Replay extends Exception {
        Replay(long seed) {
            super(replayHint(seed), null, false, false);
        }
    }
}
