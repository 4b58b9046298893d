package dev.everett.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streams benchmark in a tiny, quick form, so the harness cannot rot between full runs
 * ({@code bench/run-streams.sh}): each flavour's run in this JVM on a few hundred records, its JSON
 * read back, and the runner's agreement check and summary on those results.
 */
class AggregationBenchmarkTest {
    @TempDir
    Path temp;

    @Test
    void everyFlavourEndsWithTheSameStatesAndTheSummaryReportsEachMetric() throws IOException {
        List<String> flavours = List.of(StoreFlavor.ROCKSDB.name(), StoreFlavor.EVERETT.name());
        List<Map<String, Object>> results = new ArrayList<>();
        for (String flavour : flavours) {
            Map<String, Object> run = new AggregationBenchmark(StoreFlavor.valueOf(flavour), 300, 40, temp.resolve(flavour)).run();
            Map<String, Object> read = BenchJson.readFlatObject(BenchJson.write(run), flavour);
            read.put("repeat", 1);
            results.add(read);
        }
        assertNull(AggregationBenchmarkRunner.disagreement(results), "final states of every run");
        for (Map<String, Object> run : results) {
            for (String metric : AggregationBenchmarkRunner.METRICS) {
                assertTrue(((Number) run.get(metric)).doubleValue() > 0, run.get("flavour") + " " + metric + " = " + run.get(metric));
            }
        }
        Map<String, Object> summary = AggregationBenchmarkRunner.summarize(results, flavours);
        assertEquals(flavours, List.copyOf(summary.keySet()));
        @SuppressWarnings("unchecked")
        Map<String, Object> everett = (Map<String, Object>) summary.get(StoreFlavor.EVERETT.name());
        assertTrue(everett.containsKey("restore_ratio_to_rocksdb"), everett.keySet().toString());
        String table = AggregationBenchmarkRunner.markdown(results, flavours, 300, 40, 1);
        assertEquals(2 + 1 + AggregationBenchmarkRunner.METRICS.size(), table.strip().lines().count() - 1, table);

        Map<String, Object> changed = new LinkedHashMap<>(results.getLast());
        changed.put("restore_digest", "0:0");
        results.add(changed);
        assertTrue(AggregationBenchmarkRunner.disagreement(results).startsWith("restore_digest differs"));
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, AggregationBenchmarkRunner.median(new double[] {1, 2, 9}));
        assertEquals(2.5, AggregationBenchmarkRunner.median(new double[] {1, 2, 3, 9}));
    }

    @Test
    void flatObjectsReadBackAsWritten() {
        Map<String, Object> written = new LinkedHashMap<>();
        written.put("flavour", "EVERETT \"quoted\" \\ \t");
        written.put("records", 1_000_000);
        written.put("rate", 12345.5);
        Map<String, Object> read = BenchJson.readFlatObject(BenchJson.write(written), "test");
        assertEquals(written.get("flavour"), read.get("flavour"));
        assertEquals(1_000_000.0, read.get("records"));
        assertEquals(12345.5, read.get("rate"));
    }
}
