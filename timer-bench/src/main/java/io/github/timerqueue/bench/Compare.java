package io.github.timerqueue.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The comparison in one command (started by {@code timer-bench/run}): runs every workload on every
 * registered strategy and on Agrona's wheel through JMH's Runner API (with JMH's GC profiler and,
 * on Linux, {@link ProcessCpuProfiler}), with one line of progress per run, then measures memory
 * per pending timer with JOL, prints the table, and writes the raw JMH JSON, the table (text and
 * Markdown) and a PNG chart into a new directory under the output
 * directory; with {@code --update-docs}, also into the generated section of {@code
 * docs/benchmarks.md} ({@link GeneratedSection}), with the command and date they came from.
 *
 * <p>With several forks, every benchmark runs in rounds of one fork each ({@link InterleavedForks}),
 * so that the machine's drift over minutes moves every contender alike; each benchmark's forks of
 * all rounds are then merged into one result, as JMH would have returned for as many forks.
 *
 * <p>The contenders are found at run time ({@link Contenders#names()}) and passed to JMH as the
 * {@code strategy} parameter, so a new strategy on the class path is compared without a change.
 */
public final class Compare {
  private static final String USAGE = String.join("\n",
      "usage: timer-bench/run [--full] [options]",
      "",
      "Compares every registered timer strategy and Agrona's DeadlineTimerWheel.",
      "  (default)            quick run: 1 fork, short iterations, 1,000 and 1,000,000 timers",
      "                       (idle advance and TTL expire at 1,000,000 only)",
      "  --full               full run: 2 forks, 1 s iterations, 1,000, 100,000 and 1,000,000",
      "                       timers",
      "  --strategies a,b     only these contenders (default: every registered strategy + agrona)",
      "  --workloads w,x      only these workloads: " + workloadOptions(),
      "  --sizes n,m          only these numbers of pending timers (every workload)",
      "  --forks n            JMH forks per benchmark, interleaved: n rounds of one fork of",
      "                       every benchmark, merged into one result per benchmark, so that",
      "                       the machine's drift over minutes moves every contender alike",
      "  --no-memory          skip the JOL memory measurement",
      "  --out dir            where the results directory goes (default: results)",
      "  --update-docs        when every run succeeded, replace the generated section of the",
      "                       docs file (between its marker comments) with this run's tables and",
      "                       chart, naming the command and date",
      "  --docs file          the docs file for --update-docs",
      "                       (timer-bench/run: docs/benchmarks.md)",
      "  --no-build           (timer-bench/run) use the jar already built");

  /** The population at which memory per pending timer is measured. */
  static final int MEMORY_TIMERS = 1_000_000;

  /** The chart's file name in the docs file's directory, for {@code --update-docs}. */
  static final String DOCS_CHART = "benchmarks-chart.png";

  private Compare() {}

  /**
   * Runs the comparison; see {@code --help}.
   *
   * @param args the command line
   * @throws Exception if the results cannot be written
   */
  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    Settings settings;
    try {
      settings = Settings.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println();
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    if (settings == null) {
      System.out.println(USAGE);
      return;
    }
    System.exit(run(settings, System.out) ? 0 : 1);
  }

  /** Runs the comparison; returns whether every benchmark succeeded. */
  static boolean run(Settings settings, PrintStream out) throws IOException {
    LocalDateTime started = LocalDateTime.now();
    ZonedDateTime startedUtc = ZonedDateTime.now(ZoneOffset.UTC);
    if (settings.updateDocs()) {
      // Before the long run, not after it: a docs file without its markers is refused at once.
      GeneratedSection.check(
          Files.readString(settings.docs(), StandardCharsets.UTF_8), settings.docs().toString());
    }
    List<Batch> batches = settings.plan();
    int benchmarks = 0;
    for (Batch batch : batches) {
      benchmarks += batch.benchmarks();
    }
    int runs = benchmarks * settings.forks();
    out.println(announcement(settings, benchmarks));
    out.printf(Locale.ROOT, "Each run: one forked JVM, %s. Results as ns per operation (per"
        + " fired timer for expire and TTL expire) ± 99.9%% CI, bytes allocated per the same%s.%n%n",
        settings.iterations(), ProcessCpuProfiler.supported()
            ? ", and the whole JVM's CPU time per the same" : "");

    List<RunResult> runResults = runRounds(settings, batches, new ProgressFormat(out, runs), out);
    List<Measurement> measurements = new ArrayList<>();
    for (RunResult result : runResults) {
      if (result.getAggregatedResult() != null) {
        measurements.add(Measurement.of(result.getAggregatedResult()));
      }
    }

    Map<String, Double> memory = new LinkedHashMap<>();
    if (settings.memory()) {
      out.printf(Locale.ROOT, "%nMemory per pending timer (JOL, %s timers):%n",
          Numbers.count(MEMORY_TIMERS));
      for (String contender : settings.contenders()) {
        try {
          double bytes = MemoryFootprint.bytesPerTimer(contender, MEMORY_TIMERS);
          memory.put(contender, bytes);
          out.printf(Locale.ROOT, "  %-8s %6.1f B%n", contender, bytes);
        } catch (RuntimeException e) {
          out.printf(Locale.ROOT, "  %-8s failed: %s%n", contender, e);
        }
      }
    }

    List<Results.Row> rows = new ArrayList<>();
    for (Batch batch : batches) {
      rows.addAll(batch.rows());
    }
    rows.sort(Results.Row.ORDER);
    Results results = new Results(
        settings.about(started), settings.contenders(), rows, measurements, MEMORY_TIMERS, memory);

    Path dir = settings.out().resolve(
        started.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
            + (settings.full() ? "-full" : "-quick"));
    Files.createDirectories(dir);
    Path json = dir.resolve("jmh-result.json");
    try (PrintStream jsonOut = new PrintStream(json.toFile(), StandardCharsets.UTF_8)) {
      ResultFormatFactory.getInstance(ResultFormatType.JSON, jsonOut).writeOut(runResults);
    }
    String table = ResultTable.text(results);
    Files.writeString(dir.resolve("results.txt"), table);
    Files.writeString(dir.resolve("results.md"), ResultTable.markdown(results));
    out.println();
    out.println(table);
    out.println("Raw JMH results: " + json);
    out.println("Table:           " + dir.resolve("results.txt") + " (Markdown: results.md)");
    Path chart = dir.resolve("chart.png");
    ResultChart.write(results, chart);
    out.println("Chart:           " + chart);
    List<String> shortOfForks = shortOfForks(runResults, settings.forks());
    boolean complete = measurements.size() == benchmarks && shortOfForks.isEmpty();
    if (measurements.size() < benchmarks) {
      out.printf(Locale.ROOT, "%d of %d benchmarks failed%s; their errors are above.%n",
          benchmarks - measurements.size(), benchmarks,
          settings.forks() == 1 ? "" : " in every round");
    }
    if (!shortOfForks.isEmpty()) {
      out.printf(Locale.ROOT, "Short of forks, since a round's fork failed (its error is above;"
          + " the table and JSON hold the other rounds' forks):%n  %s%n",
          String.join("\n  ", shortOfForks));
    }
    if (settings.updateDocs()) {
      if (complete) {
        Path docsChart = settings.docs().toAbsolutePath().resolveSibling(DOCS_CHART);
        Files.copy(chart, docsChart, StandardCopyOption.REPLACE_EXISTING);
        GeneratedSection.update(settings.docs(), docsSection(results, settings.command(),
            startedUtc));
        out.println("Docs:            " + settings.docs() + " (generated section) and "
            + docsChart);
      } else {
        out.println("Docs:            not updated, since not every run succeeded");
      }
    }
    return complete;
  }

  /**
   * The first line printed: what is compared, how many runs (one forked JVM each) that takes, and
   * about how long.
   *
   * @param benchmarks the benchmarks of the plan (each contender at each set of parameters)
   */
  static String announcement(Settings settings, int benchmarks) {
    int runs = benchmarks * settings.forks();
    return String.format(Locale.ROOT, "Comparing %s on %s: %s, about %s.",
        String.join(", ", settings.contenders()),
        Numbers.counted(settings.workloads().size(), "workload"),
        settings.forks() == 1 ? Numbers.counted(runs, "benchmark run") : String.format(Locale.ROOT,
            "%s, %d forks each in %d interleaved rounds: %s",
            Numbers.counted(benchmarks, "benchmark"), settings.forks(), settings.forks(),
            Numbers.counted(runs, "run")),
        Numbers.minutes(runs * settings.secondsPerRun()));
  }

  /**
   * Runs every batch once per fork, in rounds of one fork of each (see {@link InterleavedForks}
   * for why), and merges each benchmark's forks of all rounds into one result.
   *
   * @return JMH's results, one per benchmark that succeeded in at least one round, as if JMH had
   *     run its forks of every round as one run
   */
  private static List<RunResult> runRounds(
      Settings settings, List<Batch> batches, ProgressFormat progress, PrintStream out) {
    List<InterleavedForks> forks = new ArrayList<>();
    for (Batch batch : batches) {
      forks.add(new InterleavedForks(batch.params()));
    }
    for (int round = 1; round <= settings.forks(); round++) {
      if (settings.forks() > 1) {
        out.printf(Locale.ROOT, "Round %d of %d:%n", round, settings.forks());
      }
      for (int i = 0; i < batches.size(); i++) {
        Batch batch = batches.get(i);
        try {
          forks.get(i).add(new Runner(batch.options(settings), progress).run());
        } catch (RunnerException e) {
          out.println("JMH could not run " + batch.workload().label() + ": " + e.getMessage());
        }
      }
    }
    List<RunResult> merged = new ArrayList<>();
    for (InterleavedForks batchForks : forks) {
      merged.addAll(batchForks.merged());
    }
    return merged;
  }

  /**
   * The benchmarks among {@code results} that hold fewer than {@code forks} forks, since their
   * fork failed in some round: they must not pass for complete.
   *
   * @return each as "workload contender population[ ttls=n]: k of n forks"
   */
  static List<String> shortOfForks(List<RunResult> results, int forks) {
    List<String> shortOf = new ArrayList<>();
    for (RunResult result : results) {
      BenchmarkParams params = result.getParams();
      if (params.getForks() < forks) {
        shortOf.add(String.format(Locale.ROOT, "%s: %d of %d forks",
            ProgressFormat.what(params), params.getForks(), forks));
      }
    }
    return shortOf;
  }

  /**
   * The generated section of the docs: the command and date, the table with its notes, the chart
   * ({@value #DOCS_CHART}, next to the docs file) and the table of ratios to Agrona.
   */
  static String docsSection(Results results, String command, ZonedDateTime started) {
    StringBuilder md = new StringBuilder();
    md.append("Generated by `").append(command).append("` on ")
        .append(started.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)))
        .append(", every contender in the same run. Times are ns per operation (per fired timer"
            + " for expire and TTL expire); compare contenders within a row, not across runs:"
            + " the machine is shared.\n\n");
    md.append(ResultTable.markdown(results)).append('\n');
    md.append("![ns per operation by strategy and number of pending timers, and memory per"
        + " pending timer](").append(DOCS_CHART).append(")\n");
    String ratios = ResultTable.ratiosToAgrona(results);
    if (!ratios.isEmpty()) {
      md.append("\nAs ratios to Agrona's wheel in this run (below 1: faster than Agrona):\n\n")
          .append(ratios);
    }
    String cpu = ResultTable.cpuMarkdown(results);
    if (!cpu.isEmpty()) {
      md.append("\nThe whole JVM's CPU time per operation (per fired timer for expire and TTL"
          + " expire), which counts the work a strategy leaves to other threads, such as G1's"
          + " concurrent refinement of the cards its reference stores dirty:\n\n").append(cpu);
    }
    String cpuRatios = ResultTable.cpuRatiosToAgrona(results);
    if (!cpuRatios.isEmpty()) {
      md.append("\nProcess CPU per operation as ratios to Agrona's in this run:\n\n")
          .append(cpuRatios);
    }
    return md.toString();
  }

  private static String workloadOptions() {
    List<String> names = new ArrayList<>();
    for (Workload workload : Workload.values()) {
      names.add(workload.option());
    }
    return String.join(", ", names);
  }

  /** What to run and how long, from the command line. */
  record Settings(
      boolean full,
      List<String> contenders,
      Set<Workload> workloads,
      List<Integer> sizes,
      int forks,
      boolean memory,
      Path out,
      boolean updateDocs,
      Path docs,
      String command) {

    static final List<Integer> QUICK_SIZES = List.of(1_000, 1_000_000);
    static final List<Integer> FULL_SIZES = List.of(1_000, 100_000, 1_000_000);
    static final List<Integer> TTLS = List.of(1, 16, 10_000);

    /** Parses the command line; {@code null} for {@code --help}. */
    static Settings parse(String... args) {
      boolean full = false;
      List<String> contenders = Contenders.names();
      Set<Workload> workloads = EnumSet.allOf(Workload.class);
      List<Integer> sizes = null;
      Integer forks = null;
      boolean memory = true;
      Path out = Path.of("results");
      boolean updateDocs = false;
      Path docs = Path.of("docs", "benchmarks.md");
      // The command as a reader would type it again: where the results go is left out.
      StringBuilder command = new StringBuilder("timer-bench/run");
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        int first = i;
        switch (arg) {
          case "--help", "-h" -> {
            return null;
          }
          case "--full" -> full = true;
          case "--quick" -> full = false;
          case "--no-memory" -> memory = false;
          case "--strategies" -> contenders = contenders(value(args, ++i, arg));
          case "--workloads" -> workloads = workloads(value(args, ++i, arg));
          case "--sizes" -> sizes = sizes(value(args, ++i, arg));
          case "--forks" -> forks = positive(value(args, ++i, arg), arg);
          case "--out" -> out = Path.of(value(args, ++i, arg));
          case "--update-docs" -> updateDocs = true;
          case "--docs" -> docs = Path.of(value(args, ++i, arg));
          default -> throw new IllegalArgumentException("unknown option: " + arg);
        }
        if (!arg.equals("--out") && !arg.equals("--docs")) {
          for (int j = first; j <= i; j++) {
            command.append(' ').append(args[j]);
          }
        }
      }
      return new Settings(full, contenders, workloads,
          sizes != null ? sizes : full ? FULL_SIZES : QUICK_SIZES,
          forks != null ? forks : full ? 2 : 1,
          memory, out, updateDocs, docs, command.toString());
    }

    private static String value(String[] args, int i, String option) {
      if (i >= args.length) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      return args[i];
    }

    private static List<String> contenders(String list) {
      List<String> known = Contenders.names();
      List<String> chosen = new ArrayList<>();
      for (String name : list.split(",")) {
        if (!known.contains(name.trim())) {
          throw new IllegalArgumentException(
              "unknown contender '" + name.trim() + "'; contenders are " + known);
        }
        chosen.add(name.trim());
      }
      return chosen;
    }

    private static Set<Workload> workloads(String list) {
      Set<Workload> chosen = EnumSet.noneOf(Workload.class);
      for (String name : list.split(",")) {
        Workload match = null;
        for (Workload workload : Workload.values()) {
          if (workload.option().equals(name.trim())) {
            match = workload;
          }
        }
        if (match == null) {
          throw new IllegalArgumentException(
              "unknown workload '" + name.trim() + "'; workloads are " + workloadOptions());
        }
        chosen.add(match);
      }
      return chosen;
    }

    private static List<Integer> sizes(String list) {
      List<Integer> sizes = new ArrayList<>();
      for (String size : list.split(",")) {
        sizes.add(positive(size.trim().replace("_", ""), "--sizes"));
      }
      return sizes;
    }

    private static int positive(String value, String option) {
      try {
        int n = Integer.parseInt(value);
        if (n >= 1) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException(option + " takes whole numbers of at least 1, not '"
          + value + "'");
    }

    int warmupIterations() {
      return 3;
    }

    int warmupMillis() {
      return full ? 1000 : 250;
    }

    int measurementIterations() {
      return 5;
    }

    int measurementMillis() {
      return full ? 1000 : 150;
    }

    /**
     * A rough estimate for the announcement of one run (one fork of one benchmark): iterations,
     * plus JVM start and filling.
     */
    double secondsPerRun() {
      double iterations = (warmupIterations() * warmupMillis()
          + measurementIterations() * measurementMillis()) / 1000.0;
      return iterations + 1.1;
    }

    /** What each fork runs: "3 warm-up x 250 ms, 5 measured x 150 ms". */
    String iterations() {
      return String.format(Locale.ROOT, "%d warm-up x %d ms, %d measured x %d ms",
          warmupIterations(), warmupMillis(), measurementIterations(), measurementMillis());
    }

    String describe() {
      return forks == 1 ? "1 fork, " + iterations()
          : forks + " forks in interleaved rounds, " + iterations();
    }

    List<String> about(LocalDateTime started) {
      return List.of(
          String.format(Locale.ROOT, "timer-bench %s run, %s: %s %s, %d cores, %s.",
              full ? "full" : "quick",
              started.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")),
              System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
              Runtime.getRuntime().availableProcessors(), describe()));
    }

    /**
     * The JMH runs, one batch per workload and set of parameters: nextExpiryDelay leaves Agrona
     * out; with the quick run's sizes, idle advance and TTL expire run at 1,000,000 timers only
     * (the population where they tell the strategies apart, which keeps the quick run under five
     * minutes); TTL counts that do not fit a population are left out (see {@link
     * TtlExpireBenchmark}).
     */
    List<Batch> plan() {
      List<Batch> batches = new ArrayList<>();
      for (Workload workload : workloads) {
        List<String> names = new ArrayList<>();
        for (String contender : contenders) {
          if (workload.runsOn(contender)) {
            names.add(contender);
          }
        }
        if (names.isEmpty()) {
          continue;
        }
        List<Integer> workloadSizes = sizes;
        if (sizes.equals(QUICK_SIZES)
            && (workload == Workload.IDLE_ADVANCE || workload == Workload.TTL)) {
          workloadSizes = List.of(1_000_000);
        }
        if (workload == Workload.TTL) {
          Map<List<Integer>, List<Integer>> sizesByTtls = new LinkedHashMap<>();
          for (int size : workloadSizes) {
            List<Integer> fitting = new ArrayList<>();
            for (int ttls : TTLS) {
              if (ttls <= TtlExpireBenchmark.maxDistinctTtls(size)) {
                fitting.add(ttls);
              }
            }
            sizesByTtls.computeIfAbsent(fitting, t -> new ArrayList<>()).add(size);
          }
          sizesByTtls.forEach((ttls, ttlSizes) ->
              batches.add(new Batch(workload, names, ttlSizes, ttls)));
        } else {
          batches.add(new Batch(workload, names, workloadSizes, List.of()));
        }
      }
      return batches;
    }
  }

  /** One JMH run: a workload on some contenders, populations and TTL counts. */
  record Batch(Workload workload, List<String> contenders, List<Integer> sizes,
      List<Integer> ttls) {

    /** The benchmarks the batch runs (each contender at each set of parameters). */
    int benchmarks() {
      return contenders.size() * sizes.size() * Math.max(1, ttls.size());
    }

    List<Results.Row> rows() {
      List<Results.Row> rows = new ArrayList<>();
      for (int size : sizes) {
        if (ttls.isEmpty()) {
          rows.add(new Results.Row(workload, 0, size));
        }
        for (int count : ttls) {
          rows.add(new Results.Row(workload, count, size));
        }
      }
      return rows;
    }

    /**
     * The values of each JMH parameter, in the order JMH is given them: a value's position in its
     * list is the order JMH gives it, by which it sorts results.
     */
    Map<String, List<String>> params() {
      Map<String, List<String>> params = new LinkedHashMap<>();
      params.put("strategy", contenders);
      params.put("pending", strings(sizes));
      if (!ttls.isEmpty()) {
        params.put("ttls", strings(ttls));
      }
      return params;
    }

    org.openjdk.jmh.runner.options.Options options(Settings settings) {
      ChainedOptionsBuilder options = new OptionsBuilder()
          .include("^" + Pattern.quote(workload.benchmark().getName()) + "\\.")
          // One fork per run: Compare runs a batch once per round for each further fork.
          .forks(1)
          .warmupIterations(settings.warmupIterations())
          .warmupTime(TimeValue.milliseconds(settings.warmupMillis()))
          .measurementIterations(settings.measurementIterations())
          .measurementTime(TimeValue.milliseconds(settings.measurementMillis()))
          .addProfiler(GCProfiler.class)
          .shouldFailOnError(false);
      if (ProcessCpuProfiler.supported()) {
        options.addProfiler(ProcessCpuProfiler.class);
      }
      params().forEach((name, values) -> options.param(name, values.toArray(String[]::new)));
      return options.build();
    }

    private static List<String> strings(List<Integer> values) {
      List<String> strings = new ArrayList<>();
      for (int value : values) {
        strings.add(String.valueOf(value));
      }
      return strings;
    }
  }
}
