package io.github.timerqueue.bench;

import java.util.regex.Pattern;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * JMH options for running a benchmark class in the test's own JVM in milliseconds: for tests that
 * need JMH to run the code and return its results, not to measure anything.
 */
final class BriefRuns {
  private BriefRuns() {}

  /**
   * Options that run every benchmark method of {@code benchmark} without forking, with no warm-up
   * and one measured iteration of 5 ms (a single shot for single-shot benchmarks), failing on the
   * first error, silently; the caller adds the parameters.
   */
  static ChainedOptionsBuilder of(Class<?> benchmark) {
    return new OptionsBuilder()
        .include("^" + Pattern.quote(benchmark.getName()) + "\\.")
        .forks(0)
        .warmupIterations(0)
        .measurementIterations(1)
        .measurementTime(TimeValue.milliseconds(5))
        .shouldFailOnError(true)
        .verbosity(VerboseMode.SILENT);
  }
}
