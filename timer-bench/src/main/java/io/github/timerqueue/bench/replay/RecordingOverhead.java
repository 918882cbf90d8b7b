package io.github.timerqueue.bench.replay;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Measures the target for recording, "overhead at most 20% of throughput at 10<sup>6</sup>
 * operations per second", and says whether it is met: runs {@link RecordingOverheadBenchmark}
 * paced at a million operations per second and flat out, with recording {@code off} and {@code
 * on}, with {@link RecorderProfiler}, in one JMH run.
 *
 * <p>At that load each operation has a microsecond. What recording takes of it is the owner
 * thread's extra time per operation plus the writer thread's CPU time per operation: the share of
 * a core that the service loses to recording, and so of its throughput at that load. The owner's
 * time is the median of its operations: on a shared machine the mean also counts every preemption
 * of the owner thread, which has nothing to do with recording (the means are printed too). The
 * owner's own slowdown is printed beside it, and the flat-out run says how many operations a
 * recorder drops when offered more than its writer keeps up with.
 *
 * <pre>
 * java -cp timer-bench/target/benchmarks.jar \
 *     io.github.timerqueue.bench.replay.RecordingOverhead [--forks N] [--strategy S]
 * </pre>
 */
public final class RecordingOverhead {
  /** The bound on what recording may cost at a million operations per second. */
  static final double TARGET = 0.20;

  private RecordingOverhead() {}

  /**
   * Runs the measurement and prints the verdict.
   *
   * @param args {@code --forks N} per JMH run (default 1), {@code --rounds N} of runs without and
   *     with recording (default 3), {@code --strategy S} (default {@code wheel})
   * @throws RunnerException if JMH fails
   */
  public static void main(String[] args) throws RunnerException {
    int forks = 1;
    int rounds = 3;
    String strategy = "wheel";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--forks" -> forks = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--strategy" -> strategy = args[++i];
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + "; the options are --forks N, --rounds N and --strategy S");
      }
    }
    List<Overhead> measured = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      Collection<RunResult> results = new Runner(new OptionsBuilder()
          .include("^" + Pattern.quote(RecordingOverheadBenchmark.class.getName())
              + "\\.(rearm|rearmAtAMillionPerSecond)$")
          .param("recording", "off", "on")
          .param("strategy", strategy)
          .addProfiler(RecorderProfiler.class)
          .forks(forks)
          .build()).run();
      measured.add(new Overhead(
          median(results, "off"),
          median(results, "on"),
          score(results, "rearmAtAMillionPerSecond", "off", null),
          score(results, "rearmAtAMillionPerSecond", "on", null),
          score(results, "rearmAtAMillionPerSecond", "on", RecorderProfiler.WRITER_CPU),
          score(results, "rearmAtAMillionPerSecond", "on", RecorderProfiler.DROPPED),
          rate(results),
          score(results, "rearm", "off", null),
          score(results, "rearm", "on", null),
          score(results, "rearm", "on", RecorderProfiler.DROPPED),
          score(results, "rearm", "on", RecorderProfiler.OPERATIONS)));
    }
    System.out.println();
    for (int round = 0; round < measured.size(); round++) {
      System.out.printf(Locale.ROOT, "Round %d of %d:%n%s%n", round + 1, measured.size(),
          verdict(measured.get(round), strategy));
    }
    System.out.println(summary(measured));
  }

  /**
   * The median round's share, against the target. A shared machine's load drifts between the runs
   * with and without recording, so one round can show recording as faster than not recording;
   * several rounds and their median are the measurement, the spread of the rounds its noise.
   */
  static String summary(List<Overhead> rounds) {
    double[] shares = rounds.stream().mapToDouble(Overhead::shareOfBudget).sorted().toArray();
    double median = shares.length % 2 == 1 ? shares[shares.length / 2]
        : (shares[shares.length / 2 - 1] + shares[shares.length / 2]) / 2;
    return String.format(Locale.ROOT, "Over %d rounds, recording took %.1f%% of each operation's"
        + " microsecond (the median; rounds from %.1f%% to %.1f%%): %s the target of at most"
        + " %.0f%%.", shares.length, 100 * median, 100 * shares[0],
        100 * shares[shares.length - 1], median <= TARGET ? "within" : "OVER", 100 * TARGET);
  }

  /**
   * What one run measured, ns per operation unless said otherwise.
   *
   * @param pacedOff the owner's median time at a million per second without recording
   * @param pacedOn the same, recording
   * @param pacedMeanOff the owner's mean time at a million per second without recording
   * @param pacedMeanOn the same, recording
   * @param pacedWriter the writer thread's CPU time per operation at a million per second
   * @param pacedDropped operations dropped at a million per second
   * @param pacedRate the operations per second the paced run with recording achieved: less than
   *     a million when the owner thread is preempted (its schedule then restarts)
   * @param flatOff the owner's time flat out without recording
   * @param flatOn the same, recording
   * @param flatDropped operations dropped flat out
   * @param flatOperations operations performed flat out, recording
   */
  record Overhead(double pacedOff, double pacedOn, double pacedMeanOff, double pacedMeanOn,
      double pacedWriter, double pacedDropped, double pacedRate,
      double flatOff, double flatOn, double flatDropped, double flatOperations) {

    /** The share of each operation's microsecond that recording takes, owner and writer. */
    double shareOfBudget() {
      return (pacedOn - pacedOff + pacedWriter) / RecordingOverheadBenchmark.PERIOD_NANOS;
    }
  }

  /** The verdict as printed. */
  static String verdict(Overhead o, String strategy) {
    double share = o.shareOfBudget();
    return String.format(Locale.ROOT, String.join("%n",
        "Recording on `%s`, offered a million operations per second (one every %d ns; %,.0f a"
            + " second achieved):",
        "  owner thread: a median of %.1f ns per operation without recording, %.1f ns with"
            + " (%+.0f%%); means %.1f and %.1f ns",
        "  writer thread: %.1f ns of CPU per operation; %,.0f operations dropped",
        "  recording takes %.1f%% of each operation's microsecond (owner %+.1f ns + writer %.1f"
            + " ns): %s the target of at most %.0f%%",
        "Flat out: owner %.1f ns without recording, %.1f ns with (%.2fx); the recorder dropped"
            + " %,.0f of %,.0f operations (%.1f%%)"),
        strategy, RecordingOverheadBenchmark.PERIOD_NANOS, o.pacedRate(), o.pacedOff(), o.pacedOn(),
        100 * (o.pacedOn() / o.pacedOff() - 1), o.pacedMeanOff(), o.pacedMeanOn(),
        o.pacedWriter(), o.pacedDropped(), 100 * share,
        o.pacedOn() - o.pacedOff(), o.pacedWriter(), share <= TARGET ? "within" : "OVER",
        100 * TARGET, o.flatOff(), o.flatOn(), o.flatOn() / o.flatOff(), o.flatDropped(),
        o.flatOperations(), 100 * o.flatDropped() / o.flatOperations());
  }

  /** The owner's median time per operation in the paced run with {@code recording}. */
  private static double median(Collection<RunResult> results, String recording) {
    for (RunResult run : results) {
      if (run.getParams().getBenchmark().endsWith(".rearmAtAMillionPerSecond")
          && run.getParams().getParam("recording").equals(recording)) {
        return run.getPrimaryResult().getStatistics().getPercentile(50);
      }
    }
    return Double.NaN;
  }

  /** Operations per second of the measured iterations of the paced run with recording. */
  private static double rate(Collection<RunResult> results) {
    for (RunResult run : results) {
      if (run.getParams().getBenchmark().endsWith(".rearmAtAMillionPerSecond")
          && run.getParams().getParam("recording").equals("on")) {
        Result<?> operations = run.getSecondaryResults().get(RecorderProfiler.OPERATIONS);
        if (operations == null) {
          return Double.NaN;
        }
        // The iterations the profiler reported on (the last one of each fork has no writer left).
        double seconds = operations.getStatistics().getN() * run.getParams().getMeasurement()
            .getTime().convertTo(TimeUnit.NANOSECONDS) / 1e9;
        return operations.getScore() / seconds;
      }
    }
    return Double.NaN;
  }

  /** The primary score, or the named secondary one, of one benchmark and setting; NaN if absent. */
  private static double score(Collection<RunResult> results, String method, String recording,
      String secondary) {
    for (RunResult run : results) {
      if (run.getParams().getBenchmark().endsWith("." + method)
          && run.getParams().getParam("recording").equals(recording)) {
        Result<?> result = secondary == null ? run.getPrimaryResult()
            : run.getSecondaryResults().get(secondary);
        return result == null ? Double.NaN : result.getScore();
      }
    }
    return Double.NaN;
  }
}
