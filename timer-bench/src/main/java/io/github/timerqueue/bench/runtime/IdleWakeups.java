package io.github.timerqueue.bench.runtime;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Idle wake-ups: starts each contender with nothing scheduled, waits, and counts how often its
 * timer thread woke, from the voluntary context switches Linux counts for the thread ({@code
 * /proc/self/task/<tid>/status}, the thread found by its name in {@code comm}), and for a {@code
 * TimerService} also from its own {@code stats().wakeups()}. All contenders idle at once: an idle
 * thread takes no CPU from the others, and the run costs one wait instead of one per contender.
 * Goal for {@code TimerService}: 0.
 *
 * <pre>
 * java -cp timer-bench/target/benchmarks.jar io.github.timerqueue.bench.runtime.IdleWakeups \
 *     [impl,...] [seconds]
 * </pre>
 */
public final class IdleWakeups {
  static final long DEFAULT_WAIT_MILLIS = 5_000;
  /** Lets each thread finish starting up before counting. */
  private static final long SETTLE_MILLIS = 200;
  private static final Path TASKS = Path.of("/proc/self/task");

  private IdleWakeups() {}

  /** Wake-ups per second of one contender's idle timer thread; NaN where not measurable. */
  record Rate(String impl, double contextSwitchesPerSecond, double serviceWakeupsPerSecond) {}

  /**
   * Prints the wake-ups per second of each contender (all of them by default).
   *
   * @param args optionally a comma-separated list of contenders, then the seconds to wait
   * @throws Exception if interrupted, or /proc cannot be read
   */
  public static void main(String[] args) throws Exception {
    List<String> impls = args.length > 0
        ? Arrays.asList(args[0].split(",")) : RuntimeContenders.names();
    long waitMillis = args.length > 1 ? Long.parseLong(args[1]) * 1000 : DEFAULT_WAIT_MILLIS;
    for (Rate rate : measure(impls, waitMillis)) {
      System.out.println(describe(rate));
    }
  }

  static String describe(Rate rate) {
    return String.format("%-8s thread wake-ups/s %s  service wake-ups/s %s", rate.impl(),
        RuntimeCompare.rate(rate.contextSwitchesPerSecond()),
        RuntimeCompare.rate(rate.serviceWakeupsPerSecond()));
  }

  /** Measures every contender of {@code impls} idle at once for {@code waitMillis}. */
  static List<Rate> measure(List<String> impls, long waitMillis)
      throws InterruptedException, IOException {
    Map<String, RuntimeTimer> timers = new LinkedHashMap<>();
    try {
      for (String impl : impls) {
        timers.put(impl, RuntimeContenders.start(impl));
      }
      Thread.sleep(SETTLE_MILLIS);
      Map<String, Path> status = new LinkedHashMap<>();
      long[] switchesBefore = new long[impls.size()];
      long[] wakeupsBefore = new long[impls.size()];
      int i = 0;
      for (RuntimeTimer timer : timers.values()) {
        Path path = statusOf(timer.threadName());
        status.put(timer.threadName(), path);
        switchesBefore[i] = voluntarySwitches(path);
        wakeupsBefore[i] = serviceWakeups(timer);
        i++;
      }
      long started = System.nanoTime();
      Thread.sleep(waitMillis);
      double seconds = (System.nanoTime() - started) / 1e9;
      List<Rate> rates = new ArrayList<>();
      i = 0;
      for (Map.Entry<String, RuntimeTimer> entry : timers.entrySet()) {
        RuntimeTimer timer = entry.getValue();
        Path path = status.get(timer.threadName());
        long switches = voluntarySwitches(path);
        long wakeups = serviceWakeups(timer);
        rates.add(new Rate(entry.getKey(),
            switches < 0 || switchesBefore[i] < 0
                ? Double.NaN : (switches - switchesBefore[i]) / seconds,
            wakeups < 0 ? Double.NaN : (wakeups - wakeupsBefore[i]) / seconds));
        i++;
      }
      return rates;
    } finally {
      for (RuntimeTimer timer : timers.values()) {
        timer.close();
      }
    }
  }

  private static long serviceWakeups(RuntimeTimer timer) {
    return timer instanceof ServiceTimer service ? service.stats().wakeups() : -1;
  }

  /** The status file of this process's thread named {@code name}; null if there is none. */
  static Path statusOf(String name) throws IOException {
    if (!Files.isDirectory(TASKS)) {
      return null;
    }
    Path found = null;
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
      for (Path task : tasks) {
        try {
          if (Files.readString(task.resolve("comm")).strip().equals(name)) {
            if (found != null) {
              throw new IllegalStateException("two threads are named " + name);
            }
            found = task.resolve("status");
          }
        } catch (IOException threadEnded) {
          // A thread that ended while we looked is not the one we want.
        }
      }
    }
    return found;
  }

  /** The voluntary context switches in {@code status}; -1 if it cannot be read. */
  static long voluntarySwitches(Path status) {
    if (status == null) {
      return -1;
    }
    try {
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith("voluntary_ctxt_switches:")) {
          return Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
