package io.github.timerqueue.bench.replay;

import io.github.timerqueue.trace.TraceHeader;
import io.github.timerqueue.trace.TraceReader;
import io.github.timerqueue.trace.TraceWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jol.info.GraphStats;

/**
 * Replays a timer trace on every strategy and on Agrona's wheel, and says which serves it best
 * (started by {@code timer-bench/run --trace FILE}); also generates traces of the common shapes.
 *
 * <p>Each contender replays the trace in a fresh JVM (as JMH forks, so that no contender runs on
 * call sites another made megamorphic), streaming it from the file every time: a warm-up on its
 * first {@value #WARMUP_RECORDS} records, measured passes over all of it (three by default, each
 * chunk of records counted with its least time, see {@link ChunkTimes}), and a pass up to the peak
 * population, where the structure's memory is measured
 * with JOL. Memory stays bounded by the peak population whatever the trace's length.
 */
public final class TraceReplay {
  private static final String USAGE = String.join("\n",
      "usage: timer-bench/run --trace FILE [options]",
      "       timer-bench/run --generate SHAPE --to FILE [--ops N] [--seed S] [--text]",
      "",
      "Replays a timer trace (binary or text) on every strategy and on Agrona's DeadlineTimerWheel,",
      "prints a table and a recommendation, and writes them with JSON and a chart to a new results",
      "directory.",
      "  --resolution N    replay at N trace units per tick (a multiple of the trace's resolution;",
      "                    coarser ticks trade lateness for speed); default: the trace's",
      "  --only a,b        only these contenders (labels as in the table's first column, or",
      "                    strategy names)",
      "  --passes N        measured passes per contender; each chunk of records counts with its",
      "                    least time over the passes (default 3)",
      "  --no-memory       skip the memory measurement (one pass less)",
      "  --in-process      replay every contender in this JVM instead of one fresh JVM each",
      "                    (faster to start; later contenders then run on call sites the earlier",
      "                    ones made megamorphic, so their times are not comparable)",
      "  --out DIR         where the results directory goes (default: results)",
      "",
      "Shapes: rpc, idle, cache, retry, periodic (see TraceShape); --ops defaults to 1,000,000.");

  static final long WARMUP_RECORDS = 2_000_000;

  private TraceReplay() {}

  /**
   * Runs the command line; see {@code --help}.
   *
   * @param args the command line
   * @throws Exception if the trace cannot be read or the results written
   */
  public static void main(String[] args) throws Exception {
    List<String> list = new ArrayList<>(Arrays.asList(args));
    try {
      if (list.isEmpty() || list.contains("--help")) {
        System.out.println(USAGE);
      } else if (list.contains("--generate")) {
        generate(list);
      } else if (list.contains(CHILD)) {
        child(list);
      } else {
        Settings settings = Settings.parse(list);
        Report report = replay(settings, System.out);
        Path dir = settings.out.resolve(LocalDateTime.now()
            .format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmmss", Locale.ROOT))
            + "-trace-" + settings.trace.getFileName());
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("replay.txt"), report.text(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("replay.json"), report.json(), StandardCharsets.UTF_8);
        ReplayChart.write(report.results(), dir.resolve("replay.png"));
        System.out.println();
        System.out.println("Results: " + dir);
      }
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println();
      System.err.println(USAGE);
      System.exit(2);
    }
  }

  private static void generate(List<String> args) throws IOException {
    TraceShape shape = TraceShape.of(value(args, "--generate", null));
    Path to = Path.of(value(args, "--to", null));
    long ops = Long.parseLong(value(args, "--ops", "1000000"));
    long seed = Long.parseLong(value(args, "--seed", "1"));
    OutputStream out = new BufferedOutputStream(Files.newOutputStream(to), 1 << 16);
    TraceWriter writer = args.contains("--text")
        ? TraceWriter.text(out, TraceGenerator.HEADER)
        : TraceWriter.binary(out, TraceGenerator.HEADER);
    TraceGenerator.generate(shape, seed, ops, writer);
    System.out.printf(Locale.ROOT, "Wrote %,d records of shape %s to %s (%,d bytes, %.2f per"
        + " record)%n", writer.records(), shape.label(), to, Files.size(to),
        (double) Files.size(to) / writer.records());
  }

  private static String value(List<String> args, String option, String otherwise) {
    int at = args.lastIndexOf(option);
    if (at < 0) {
      if (otherwise == null) {
        throw new IllegalArgumentException(option + " is required");
      }
      return otherwise;
    }
    if (at + 1 >= args.size()) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args.get(at + 1);
  }

  /** What to replay, parsed from the command line. */
  record Settings(Path trace, long resolution, List<Contender> contenders, boolean memory,
      Path out, boolean fork, int passes) {

    static Settings parse(List<String> args) {
      Path trace = Path.of(value(args, "--trace", null));
      long resolution = Long.parseLong(value(args, "--resolution", "0"));
      List<Contender> contenders = Contender.all();
      if (args.contains("--only")) {
        List<String> only = Arrays.asList(value(args, "--only", null).split(","));
        contenders = contenders.stream()
            .filter(c -> only.contains(c.label()) || only.contains(c.strategy()))
            .toList();
        if (contenders.isEmpty()) {
          throw new IllegalArgumentException("--only " + only + " matches no contender; they are "
              + Contender.all().stream().map(Contender::label).toList());
        }
      }
      int passes = Integer.parseInt(value(args, "--passes", "3"));
      if (passes < 1) {
        throw new IllegalArgumentException("--passes must be at least 1, but was " + passes);
      }
      if (resolution < 0) {
        throw new IllegalArgumentException("--resolution must be positive, but was " + resolution);
      }
      return new Settings(trace, resolution, contenders, !args.contains("--no-memory"),
          Path.of(value(args, "--out", "results")), !args.contains("--in-process"), passes);
    }
  }

  /** The table, the recommendation and the JSON of one replay. */
  record Report(TraceHeader header, long resolution, TraceProfile profile,
      List<ReplayResult> results, String recommendation) {

    String text() {
      StringBuilder text = new StringBuilder();
      text.append(String.format(Locale.ROOT, "%,d records, %.2f bytes per record, %s per tick,"
              + " %,d ticks; %.0f%% of timers cancelled while pending, %d distinct delays%s%n%n",
          profile.records(), profile.bytesPerRecord(), duration(header, resolution),
          profile.spanTicks(), 100 * profile.cancelledShare(),
          Math.min(profile.distinctDelays(), DelayProfile.MAX_DISTINCT),
          profile.distinctDelays() > DelayProfile.MAX_DISTINCT ? "+" : "",
          profile.dropped() > 0 ? ", " + profile.dropped() + " DROPPED" : ""));
      text.append(String.format(Locale.ROOT,
          "%-28s %9s %7s %9s %9s %9s %9s %9s %9s %9s %9s%n", "contender", "ns/op", "spread",
          "schedule", "cancel", "resched.", "advance", "B/timer", "wake-ups", "idle",
          "late max"));
      for (ReplayResult r : results) {
        double[] k = r.nanosByKind();
        text.append(String.format(Locale.ROOT,
            "%-28s %9s %7s %9s %9s %9s %9s %9s %9s %9s %9s%n",
            r.contender().label(), Advisor.nanos(r.nanosPerOp()), Advisor.percent(r.spread()),
            Advisor.nanos(k[ReplayPass.SCHEDULE]), Advisor.nanos(k[ReplayPass.CANCEL]),
            Advisor.nanos(k[ReplayPass.RESCHEDULE]), Advisor.nanos(k[ReplayPass.ADVANCE]),
            Double.isNaN(r.bytesPerTimer()) ? "-"
                : String.format(Locale.ROOT, "%.0f", r.bytesPerTimer()),
            String.format(Locale.ROOT, "%,d", r.wakeups()),
            String.format(Locale.ROOT, "%,d", r.idleWakeups()),
            String.format(Locale.ROOT, "%,d", r.maxLateness())));
      }
      text.append(String.format(Locale.ROOT, "%nns/op: the trace's mix, each chunk of records at"
          + " its least time over the measured passes; spread: how much longer a typical chunk took"
          + " in its next-best pass, the noise of ns/op.%n"));
      text.append(System.lineSeparator()).append(recommendation).append(System.lineSeparator());
      return text.toString();
    }

    String json() {
      StringBuilder json = new StringBuilder("{\n");
      json.append(String.format(Locale.ROOT, "  \"unitNanos\": %d, \"traceResolution\": %d,"
              + " \"replayResolution\": %d, \"startTime\": %d,%n", header.unitNanos(),
          header.resolution(), resolution, header.startTime()));
      json.append(String.format(Locale.ROOT, "  \"records\": %d, \"fileBytes\": %d,"
              + " \"bytesPerRecord\": %.3f, \"spanTicks\": %d, \"dropped\": %d,%n",
          profile.records(), profile.fileBytes(), profile.bytesPerRecord(), profile.spanTicks(),
          profile.dropped()));
      json.append("  \"operations\": {");
      for (int kind = 0; kind < ReplayPass.KINDS; kind++) {
        json.append(kind == 0 ? "" : ", ").append('"').append(ReplayPass.KIND_NAMES[kind])
            .append("\": ").append(profile.counts()[kind]);
      }
      json.append(String.format(Locale.ROOT, "},%n  \"fired\": %d, \"cancelledPending\": %d,"
              + " \"movedPending\": %d, \"distinctDelays\": %d, \"medianDelayTicksBelow\": %d,"
              + " \"p99DelayTicksBelow\": %d,%n", profile.fired(), profile.cancelled(),
          profile.moved(), profile.distinctDelays(), profile.medianDelay(), profile.p99Delay()));
      json.append("  \"results\": [\n");
      for (int i = 0; i < results.size(); i++) {
        ReplayResult r = results.get(i);
        json.append("    {\"contender\": ").append(quote(r.contender().label()))
            .append(", \"strategy\": ").append(quote(r.contender().strategy()))
            .append(", \"options\": {");
        int o = 0;
        for (Map.Entry<String, String> e : r.contender().options().entrySet()) {
          json.append(o++ == 0 ? "" : ", ").append(quote(e.getKey())).append(": ")
              .append(quote(e.getValue()));
        }
        json.append("}, \"nanosPerOp\": ").append(number(r.nanosPerOp()))
            .append(", \"spread\": ").append(number(r.spread()))
            .append(", \"nanosByKind\": {");
        for (int kind = 0; kind < ReplayPass.KINDS; kind++) {
          json.append(kind == 0 ? "" : ", ").append('"').append(ReplayPass.KIND_NAMES[kind])
              .append("\": ").append(number(r.nanosByKind()[kind]));
        }
        json.append("}, \"peakPending\": ").append(r.peakPending())
            .append(", \"bytesPerTimer\": ").append(number(r.bytesPerTimer()))
            .append(", \"wakeups\": ").append(r.wakeups())
            .append(", \"idleWakeups\": ").append(r.idleWakeups())
            .append(", \"fired\": ").append(r.fired())
            .append(", \"meanLatenessTicks\": ").append(number(r.meanLateness()))
            .append(", \"maxLatenessTicks\": ").append(r.maxLateness())
            .append(i + 1 < results.size() ? "},\n" : "}\n");
      }
      json.append("  ],\n  \"recommended\": ")
          .append(quote(Advisor.pick(results).contender().label()))
          .append(",\n  \"recommendation\": ").append(quote(recommendation)).append("\n}\n");
      return json.toString();
    }

    private static String number(double value) {
      return Double.isNaN(value) ? "null" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String quote(String s) {
      StringBuilder q = new StringBuilder("\"");
      for (char c : s.toCharArray()) {
        if (c == '"' || c == '\\') {
          q.append('\\').append(c);
        } else if (c < 0x20) {
          q.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
        } else {
          q.append(c);
        }
      }
      return q.append('"').toString();
    }
  }

  /** Replays the trace on every contender, printing progress to {@code out}. */
  static Report replay(Settings settings, PrintStream out) throws IOException {
    TraceHeader header;
    try (TraceReader reader = TraceReader.open(settings.trace())) {
      header = reader.header();
    }
    long resolution = settings.resolution() == 0 ? header.resolution() : settings.resolution();
    if (resolution % header.resolution() != 0) {
      throw new IllegalArgumentException("--resolution " + resolution + " is not a multiple of"
          + " the trace's resolution " + header.resolution());
    }
    long fileBytes = Files.size(settings.trace());
    ReplayProgress progress = new ReplayProgress(out, settings.contenders().size(), 0, fileBytes);
    out.printf(Locale.ROOT, "Replaying %s (%,d bytes, %s per tick) on %d contenders%n",
        settings.trace(), fileBytes, duration(header, resolution), settings.contenders().size());

    // The first contender's measured pass finds the peak population that Agrona's wheel is sized
    // for; a pass on heap finds it first if Agrona comes first.
    long peak = -1;
    TraceProfile profile = null;
    List<ReplayResult> results = new ArrayList<>();
    for (Contender contender : settings.contenders()) {
      if (peak < 0 && contender.strategy().equals(Contender.AGRONA)) {
        ReplayPass count = new ReplayPass(new Contender("heap", Map.of()).create(0),
            header.startTime(), resolution);
        run(settings.trace(), count, Long.MAX_VALUE, null);
        peak = count.peakPending;
      }
      progress.begin(contender.label());
      Measured measured = settings.fork()
          ? forked(settings, contender, resolution, Math.max(peak, 0), results.size(), out)
          : measure(settings, contender, header, resolution, Math.max(peak, 0), progress);
      if (peak < 0) {
        peak = measured.result().peakPending();
      }
      if (profile == null) {
        profile = measured.profile();
      }
      ReplayResult result = measured.result();
      results.add(result);
      progress.done(String.format(Locale.ROOT, "%s ns/op, %s B/timer, %,d wake-ups",
          Advisor.nanos(result.nanosPerOp()),
          Double.isNaN(result.bytesPerTimer()) ? "-"
              : String.format(Locale.ROOT, "%.0f", result.bytesPerTimer()),
          result.wakeups()));
    }
    String recommendation = Advisor.recommend(profile, results, duration(header, resolution));
    Report report = new Report(header, resolution, profile, results, recommendation);
    out.println();
    out.print(report.text());
    return report;
  }

  /** One contender's result, and the trace's profile as its measured pass saw it. */
  record Measured(ReplayResult result, TraceProfile profile) {}

  /** Warm-up, measured pass and memory pass of one contender, in this JVM. */
  private static Measured measure(Settings settings, Contender contender, TraceHeader header,
      long resolution, long peak, ReplayProgress progress) throws IOException {
    double clockCost = OperationTimes.clockCost();
    int memoryPasses = settings.memory() ? 1 : 0;
    progress.phase("warm-up", WARMUP_RECORDS, settings.passes() + memoryPasses);
    run(settings.trace(), new ReplayPass(contender.create(peak), header.startTime(), resolution,
        new ChunkTimes(), new OperationTimes()), WARMUP_RECORDS, progress);
    // Every measured pass replays the same chunks; each chunk counts with its least time.
    ChunkTimes chunkTimes = new ChunkTimes();
    OperationTimes operationTimes = new OperationTimes();
    ReplayPass pass = null;
    for (int i = 1; i <= settings.passes(); i++) {
      progress.phase("measure " + i + "/" + settings.passes(), ReplayProgress.WHOLE_TRACE,
          settings.passes() - i + memoryPasses);
      pass = new ReplayPass(contender.create(peak), header.startTime(), resolution, chunkTimes,
          operationTimes);
      run(settings.trace(), pass, Long.MAX_VALUE, progress);
    }
    double bytes = Double.NaN;
    if (settings.memory() && pass.peakPending > 0) {
      progress.phase("memory", pass.peakRecord, 0);
      ReplayTarget target = contender.create(Math.max(peak, pass.peakPending));
      ReplayPass toPeak = new ReplayPass(target, header.startTime(), resolution);
      run(settings.trace(), toPeak, pass.peakRecord, progress);
      long total = GraphStats.parseInstance(target.structure()).totalSize();
      bytes = (double) (total - target.replayBytesPerTimer() * target.size()) / target.size();
    }
    return new Measured(result(contender, pass, chunkTimes, operationTimes, clockCost, bytes),
        TraceProfile.of(pass, Files.size(settings.trace())));
  }

  /** The option that makes a JVM replay one contender and print its result line. */
  private static final String CHILD = "--child";
  private static final String RESULT = "RESULT ";
  /** The options that tell a child JVM how many contenders began before it, and of how many. */
  private static final String STARTED = "--started";
  private static final String CONTENDERS = "--contenders";

  /** Replays one contender in a fresh JVM, as JMH forks, passing its progress lines through. */
  private static Measured forked(Settings settings, Contender contender, long resolution,
      long peak, int started, PrintStream out) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"),
        TraceReplay.class.getName(), CHILD, contender.label(), "--trace",
        settings.trace().toString(), "--resolution", Long.toString(resolution), "--peak",
        Long.toString(peak)));
    command.addAll(List.of("--passes", Integer.toString(settings.passes()), STARTED,
        Integer.toString(started), CONTENDERS, Integer.toString(settings.contenders().size())));
    if (!settings.memory()) {
      command.add("--no-memory");
    }
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    Measured measured = null;
    try (java.io.BufferedReader lines = new java.io.BufferedReader(
        new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = lines.readLine()) != null; ) {
        if (line.startsWith(RESULT)) {
          measured = parse(contender, line.substring(RESULT.length()));
        } else {
          out.println(line);
        }
      }
    }
    try {
      int exit = process.waitFor();
      if (exit != 0 || measured == null) {
        throw new IOException("replaying on " + contender.label() + " failed (exit " + exit
            + "); its output is above");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while replaying on " + contender.label(), e);
    }
    return measured;
  }

  private static void child(List<String> args) throws IOException {
    String label = value(args, CHILD, null);
    Settings settings = Settings.parse(args);
    Contender contender = Contender.all().stream().filter(c -> c.label().equals(label))
        .findFirst().orElseThrow(() -> new IllegalArgumentException("no contender " + label));
    TraceHeader header;
    try (TraceReader reader = TraceReader.open(settings.trace())) {
      header = reader.header();
    }
    ReplayProgress progress = new ReplayProgress(System.out,
        Integer.parseInt(value(args, CONTENDERS, "1")), Integer.parseInt(value(args, STARTED, "0")),
        Files.size(settings.trace()));
    progress.begin(label);
    Measured m = measure(settings, contender, header, settings.resolution(),
        Long.parseLong(value(args, "--peak", "0")), progress);
    ReplayResult r = m.result();
    TraceProfile p = m.profile();
    StringBuilder line = new StringBuilder(RESULT);
    for (double v : r.nanosByKind()) {
      line.append(v).append(' ');
    }
    line.append(r.nanosPerOp()).append(' ').append(r.spread()).append(' ')
        .append(r.peakPending()).append(' ')
        .append(r.bytesPerTimer()).append(' ').append(r.wakeups()).append(' ')
        .append(r.idleWakeups()).append(' ').append(r.fired()).append(' ')
        .append(r.meanLateness()).append(' ').append(r.maxLateness()).append(' ')
        .append(p.records());
    for (long c : p.counts()) {
      line.append(' ').append(c);
    }
    line.append(' ').append(p.fileBytes()).append(' ').append(p.spanTicks()).append(' ')
        .append(p.fired()).append(' ').append(p.cancelled()).append(' ').append(p.moved())
        .append(' ').append(p.distinctDelays()).append(' ').append(p.medianDelay()).append(' ')
        .append(p.p99Delay()).append(' ').append(p.dropped());
    System.out.println(line);
  }

  private static Measured parse(Contender contender, String line) {
    String[] f = line.trim().split(" ");
    int i = 0;
    double[] byKind = new double[ReplayPass.KINDS];
    for (int k = 0; k < ReplayPass.KINDS; k++) {
      byKind[k] = Double.parseDouble(f[i++]);
    }
    ReplayResult result = new ReplayResult(contender, byKind, Double.parseDouble(f[i++]),
        Double.parseDouble(f[i++]), Long.parseLong(f[i++]), Double.parseDouble(f[i++]),
        Long.parseLong(f[i++]),
        Long.parseLong(f[i++]), Long.parseLong(f[i++]), Double.parseDouble(f[i++]),
        Long.parseLong(f[i++]));
    long records = Long.parseLong(f[i++]);
    long[] counts = new long[ReplayPass.KINDS];
    for (int k = 0; k < ReplayPass.KINDS; k++) {
      counts[k] = Long.parseLong(f[i++]);
    }
    TraceProfile profile = new TraceProfile(records, counts, Long.parseLong(f[i++]),
        Long.parseLong(f[i++]), Long.parseLong(f[i++]), Long.parseLong(f[i++]),
        Long.parseLong(f[i++]), Integer.parseInt(f[i++]), Long.parseLong(f[i++]),
        Long.parseLong(f[i++]), Long.parseLong(f[i]));
    return new Measured(result, profile);
  }

  private static void run(Path trace, ReplayPass pass, long stopAfter, ReplayProgress progress)
      throws IOException {
    try (TraceReader reader = TraceReader.open(trace)) {
      pass.run(reader, stopAfter,
          progress == null ? offset -> { } : offset -> progress.at(pass.records, offset));
    }
  }

  private static ReplayResult result(Contender contender, ReplayPass pass, ChunkTimes chunkTimes,
      OperationTimes operationTimes, double clockCost, double bytesPerTimer) {
    double[] byKind = new double[ReplayPass.KINDS];
    for (int kind = 0; kind < ReplayPass.KINDS; kind++) {
      byKind[kind] = Math.max(0, operationTimes.median(kind) - clockCost);
    }
    return new ReplayResult(contender, byKind, chunkTimes.nanosPerRecord(), chunkTimes.spread(),
        pass.peakPending, bytesPerTimer, pass.wakeups, pass.idleWakeups, pass.fired,
        pass.fired == 0 ? 0 : (double) pass.latenessSum / pass.fired,
        pass.latenessMax);
  }

  /** One tick as a human reads it: "1 ms", "64 ns", or "1000 units" when not real time. */
  static String duration(TraceHeader header, long resolution) {
    if (header.unitNanos() == 0) {
      return resolution + (resolution == 1 ? " unit" : " units");
    }
    long nanos = header.unitNanos() * resolution;
    String[] units = {"ns", "µs", "ms", "s"};
    int unit = 0;
    while (unit < 3 && nanos % 1000 == 0) {
      nanos /= 1000;
      unit++;
    }
    return nanos + " " + units[unit];
  }
}
