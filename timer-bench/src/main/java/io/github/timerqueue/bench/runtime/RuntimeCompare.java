package io.github.timerqueue.bench.runtime;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The runtime comparison in one command ({@code timer-bench/run-runtime}): for every registered
 * strategy run through {@code TimerService}, and for Netty's {@code HashedWheelTimer}, Kafka's
 * {@code SystemTimer} and the JDK's {@code ScheduledThreadPoolExecutor}: schedule+cancel
 * throughput from 1 and 4 threads with allocation per operation (JMH, a fork per contender and
 * thread count), reschedule throughput ({@code TimerService} only), lateness under load ({@link
 * LatenessUnderLoad}), idle wake-ups ({@link IdleWakeups}) and lateness under a flood of
 * zero-delay timeouts ({@link Flood}). Prints one table and writes it,
 * with JMH's raw results, to {@code <out>/<date>-runtime[-full]/}.
 */
public final class RuntimeCompare {
  private static final String USAGE = String.join("\n",
      "usage: run-runtime [--full] [--impls a,b,...] [--churn-rate n] [--idle-seconds n]"
          + " [--out dir]",
      "  --full               3 x 1 s warm-up and 5 x 1 s measured per JMH run (default: 2 x 0.5 s",
      "                       warm-up, 3 x 1 s measured)",
      "  --impls list         contenders, default every registered strategy then netty,kafka,stpe",
      "  --churn-rate n       lateness: the 4 churners' schedule+cancel operations per second,",
      "                       paced (default: as fast as they can)",
      "  --idle-seconds n     how long the idle timers are watched (default 5)",
      "  --out dir            where the results directory goes (default: results)");

  private RuntimeCompare() {}

  /**
   * Runs the comparison.
   *
   * @param args see {@code --help}
   * @throws Exception if the results cannot be written or the run is interrupted
   */
  public static void main(String[] args) throws Exception {
    boolean full = false;
    List<String> impls = RuntimeContenders.names();
    long idleMillis = IdleWakeups.DEFAULT_WAIT_MILLIS;
    long churnRate = 0;
    Path out = Path.of("results");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--full" -> full = true;
        case "--impls" -> impls = Arrays.asList(value(args, ++i).split(","));
        case "--churn-rate" -> churnRate = Long.parseLong(value(args, ++i));
        case "--idle-seconds" -> idleMillis = Long.parseLong(value(args, ++i)) * 1000;
        case "--out" -> out = Path.of(value(args, ++i));
        case "--help", "-h" -> {
          System.out.println(USAGE);
          return;
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i] + "\n" + USAGE);
      }
    }
    for (String impl : impls) {
      RuntimeContenders.start(impl).close(); // an unknown name fails now, not after minutes
    }
    run(impls, full, churnRate, idleMillis, out, System.out);
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value\n" + USAGE);
    }
    return args[i];
  }

  static void run(List<String> impls, boolean full, long churnRate, long idleMillis, Path out,
      PrintStream log) throws IOException, InterruptedException {
    LocalDateTime started = LocalDateTime.now();
    List<RunResult> all = new ArrayList<>();
    Map<String, RuntimeRow> rows = new LinkedHashMap<>();
    for (String impl : impls) {
      Map<String, RunResult> scheduleCancel =
          jmh(RuntimeScheduleCancelBenchmark.class, impl, full, all, log);
      Map<String, RunResult> reschedule = RuntimeContenders.isStrategy(impl)
          ? jmh(RuntimeRescheduleBenchmark.class, impl, full, all, log) : Map.of();
      rows.put(impl, new RuntimeRow(impl,
          score(scheduleCancel.get("oneThread")), score(scheduleCancel.get("fourThreads")),
          bytesPerOp(scheduleCancel.get("oneThread")),
          bytesPerOp(scheduleCancel.get("fourThreads")),
          score(reschedule.get("oneThread")), score(reschedule.get("fourThreads")), null, null));
      log.printf("%-8s schedule+cancel %s / %s ops/s (1 / 4 threads), reschedule %s / %s%n", impl,
          operations(rows.get(impl).scheduleCancel1()),
          operations(rows.get(impl).scheduleCancel4()),
          operations(rows.get(impl).reschedule1()), operations(rows.get(impl).reschedule4()));
    }
    for (String impl : impls) {
      Lateness lateness = null;
      try {
        lateness = LatenessUnderLoad.measureWarm(impl, churnRate);
        log.println(LatenessUnderLoad.describe(lateness));
      } catch (RuntimeException e) {
        log.println(impl + " lateness failed: " + e);
      }
      RuntimeRow row = rows.get(impl);
      rows.put(impl, withLateness(row, lateness));
    }
    log.printf("Watching the idle timers for %d s...%n", idleMillis / 1000);
    for (IdleWakeups.Rate rate : IdleWakeups.measure(impls, idleMillis)) {
      log.println(IdleWakeups.describe(rate));
      RuntimeRow row = rows.get(rate.impl());
      rows.put(rate.impl(), new RuntimeRow(row.impl(), row.scheduleCancel1(),
          row.scheduleCancel4(), row.bytesPerOp1(), row.bytesPerOp4(), row.reschedule1(),
          row.reschedule4(), row.lateness(), rate));
    }

    List<Flood.Result> floods = new ArrayList<>();
    for (String impl : impls) {
      try {
        Flood.Result flood = Flood.measure(impl);
        log.println(Flood.describe(flood));
        floods.add(flood);
      } catch (RuntimeException | OutOfMemoryError e) {
        log.println(impl + " flood failed: " + e);
      }
    }

    List<String> about = about(started, full, churnRate);
    List<RuntimeRow> table = new ArrayList<>(rows.values());
    Path dir = out.resolve(
        started.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-runtime"
            + (full ? "-full" : ""));
    Files.createDirectories(dir);
    Path json = dir.resolve("jmh-result.json");
    ResultFormatFactory.getInstance(ResultFormatType.JSON, json.toString()).writeOut(all);
    String text = RuntimeTable.text(about, table) + "\n" + RuntimeTable.floodText(floods);
    Files.writeString(dir.resolve("results.txt"), text);
    Files.writeString(dir.resolve("results.md"),
        RuntimeTable.markdown(about, table) + "\n" + RuntimeTable.floodMarkdown(floods));
    log.println();
    log.print(text);
    log.println();
    log.println("Raw JMH results: " + json);
    log.println("Table:           " + dir.resolve("results.txt") + " (Markdown: results.md)");
  }

  private static RuntimeRow withLateness(RuntimeRow row, Lateness lateness) {
    return new RuntimeRow(row.impl(), row.scheduleCancel1(), row.scheduleCancel4(),
        row.bytesPerOp1(), row.bytesPerOp4(), row.reschedule1(), row.reschedule4(), lateness,
        row.idle());
  }

  private static List<String> about(LocalDateTime started, boolean full, long churnRate) {
    return List.of(
        "timerqueue runtime comparison, " + (full ? "full" : "quick") + " run, "
            + started.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")) + ", "
            + Runtime.getRuntime().availableProcessors() + " cores, Java "
            + System.getProperty("java.version"),
        "schedule+cancel: a 30 s timeout scheduled and cancelled, ops/s from 1 and 4 threads;"
            + " B/op: JMH gc.alloc.rate.norm",
        "reschedule: each thread re-arms its own 30 s timeout (TimerService only; the peers"
            + " have none: n/a)",
        "lateness: actual minus deadline of 10^5 timers, delays uniform 0..100 ms, while 4"
            + " threads churn schedule+cancel "
            + (churnRate == 0 ? "as fast as they can" : "at " + churnRate + " ops/s in all"),
        "idle wake-ups/s: the timer thread's voluntary context switches over the idle wait;"
            + " service wake-ups/s: TimerService.stats().wakeups()");
  }

  /** Runs one benchmark class on one contender; its results by method name, none if it failed. */
  private static Map<String, RunResult> jmh(Class<?> benchmark, String impl, boolean full,
      List<RunResult> all, PrintStream log) {
    OptionsBuilder options = new OptionsBuilder();
    options.include("^" + Pattern.quote(benchmark.getName()) + "\\.")
        .param("impl", impl)
        .forks(1)
        .warmupIterations(full ? 3 : 2)
        .warmupTime(TimeValue.milliseconds(full ? 1000 : 500))
        .measurementIterations(full ? 5 : 3)
        .measurementTime(TimeValue.milliseconds(1000))
        .addProfiler(GCProfiler.class)
        .shouldFailOnError(true)
        .verbosity(VerboseMode.SILENT);
    Map<String, RunResult> byMethod = new LinkedHashMap<>();
    Collection<RunResult> runs;
    try {
      runs = new Runner(options.build()).run();
    } catch (RunnerException e) {
      log.println(benchmark.getSimpleName() + " on " + impl + " failed: " + e.getMessage()
          + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
      return byMethod;
    }
    for (RunResult run : runs) {
      String name = run.getParams().getBenchmark();
      byMethod.put(name.substring(name.lastIndexOf('.') + 1), run);
      all.add(run);
    }
    return byMethod;
  }

  private static double score(RunResult run) {
    return run == null ? Double.NaN : run.getPrimaryResult().getScore();
  }

  private static double bytesPerOp(RunResult run) {
    if (run == null) {
      return Double.NaN;
    }
    for (Map.Entry<String, Result> secondary : run.getSecondaryResults().entrySet()) {
      if (secondary.getKey().endsWith("gc.alloc.rate.norm")) {
        return secondary.getValue().getScore();
      }
    }
    return Double.NaN;
  }

  /** Operations per second in millions, or {@code n/a}. */
  static String operations(double perSecond) {
    return Double.isNaN(perSecond) ? "n/a" : String.format("%.2f M", perSecond / 1e6);
  }

  static String bytes(double value) {
    return Double.isNaN(value) ? "n/a" : String.format("%.0f", value);
  }

  /** Nanoseconds as milliseconds with microsecond precision. */
  static String millis(long nanos) {
    return String.format("%.3f ms", nanos / 1e6);
  }

  static String rate(double perSecond) {
    return Double.isNaN(perSecond) ? "n/a" : String.format("%.1f", perSecond);
  }
}
