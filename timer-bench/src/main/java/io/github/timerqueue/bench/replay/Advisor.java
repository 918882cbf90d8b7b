package io.github.timerqueue.bench.replay;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Turns a replay's results into a recommendation: which strategy, with which options and
 * resolution, serves the trace best, and why.
 *
 * <p>The measure is the cost of the trace's own mix: mean nanoseconds per recorded operation, every
 * kind weighted by how often the trace does it, wake-ups included in the advances. Two results
 * closer than the noise of the replay are tied: closer than {@value #TIE}&times;, or than the
 * spread of either's chunk times over its passes if that is wider ({@link #tieFactor}, {@link
 * ChunkTimes#spread()}). Among the timerqueue
 * strategies tied with the fastest, the advice takes the one that the replay measured exactly,
 * not by timing: the least memory per timer, then the least mean lateness, then the fewest
 * wake-ups; only then the faster. So a trace on which two strategies run neck and neck gets the
 * same advice from run to run, and the advice names both and says why it prefers one. Agrona's
 * wheel is reported beside it, faster or not.
 */
final class Advisor {
  /** Results within this factor of each other count as a tie, however steady their passes. */
  static final double TIE = 1.05;

  /**
   * The order among tied results: by what the replay counts rather than times (memory, lateness,
   * wake-ups), which is the same on every run of a trace; the time last.
   */
  private static final Comparator<ReplayResult> TIE_BREAK = Comparator
      .comparingDouble((ReplayResult r) -> Double.isNaN(r.bytesPerTimer()) ? 0 : r.bytesPerTimer())
      .thenComparingDouble(ReplayResult::meanLateness)
      .thenComparingLong(ReplayResult::wakeups)
      .thenComparingDouble(ReplayResult::nanosPerOp);

  private Advisor() {}

  /** The factor within which {@code a} and {@code b} are tied: the noise of their measurement. */
  static double tieFactor(ReplayResult a, ReplayResult b) {
    return Math.max(TIE, 1 + Math.max(spread(a), spread(b)));
  }

  private static double spread(ReplayResult r) {
    return Double.isNaN(r.spread()) ? 0 : r.spread();
  }

  /** Whether {@code a} and {@code b} are within the noise of each other. */
  static boolean tied(ReplayResult a, ReplayResult b) {
    double faster = Math.min(a.nanosPerOp(), b.nanosPerOp());
    double slower = Math.max(a.nanosPerOp(), b.nanosPerOp());
    return slower <= faster * tieFactor(a, b);
  }

  /** The timerqueue strategies, not Agrona. */
  private static List<ReplayResult> ours(List<ReplayResult> results) {
    return results.stream()
        .filter(r -> !r.contender().strategy().equals(Contender.AGRONA))
        .toList();
  }

  /** The recommended contender: a timerqueue strategy, never Agrona. */
  static ReplayResult pick(List<ReplayResult> results) {
    List<ReplayResult> ours = ours(results);
    if (ours.isEmpty()) {
      throw new IllegalArgumentException("no timerqueue strategy was replayed");
    }
    ReplayResult fastest = ours.stream()
        .min(Comparator.comparingDouble(ReplayResult::nanosPerOp)).orElseThrow();
    return ours.stream().filter(r -> tied(r, fastest)).min(TIE_BREAK).orElseThrow();
  }

  /** The one-paragraph recommendation. */
  static String recommend(TraceProfile profile, List<ReplayResult> results, String resolution) {
    ReplayResult pick = pick(results);
    StringBuilder text = new StringBuilder();
    Contender contender = pick.contender();
    text.append("Use `").append(contender.strategy()).append('`');
    if (!contender.options().isEmpty()) {
      text.append(" with ");
      contender.options().forEach((k, v) -> text.append('`').append(k).append('=').append(v)
          .append("` "));
      text.setLength(text.length() - 1);
    }
    text.append(" at a resolution of ").append(resolution).append(" for this trace: it replays ")
        .append("its mix (").append(mix(profile)).append(") in ")
        .append(nanos(pick.nanosPerOp())).append(" ns per operation");
    ReplayResult fastest = ours(results).stream()
        .min(Comparator.comparingDouble(ReplayResult::nanosPerOp)).orElseThrow();
    List<ReplayResult> rivals = ours(results).stream()
        .filter(r -> r != pick && !r.contender().strategy().equals(contender.strategy()))
        .sorted(Comparator.comparingDouble(ReplayResult::nanosPerOp))
        .toList();
    List<ReplayResult> tiedRivals = rivals.stream().filter(r -> tied(r, fastest)).toList();
    ReplayResult next = rivals.isEmpty() ? null : rivals.get(0);
    String tie = "";
    if (!tiedRivals.isEmpty()) {
      ReplayResult rival = tiedRivals.get(0);
      text.append(", within ")
          .append(String.format(Locale.ROOT, "%.0f%%", (tieFactor(pick, rival) - 1) * 100))
          .append(" of `").append(rival.contender().label()).append("` (")
          .append(nanos(rival.nanosPerOp())).append(" ns)").append(preferred(pick, rival));
      tie = tie(pick, tiedRivals);
    } else if (next != null) {
      text.append(", ").append(ratio(pick, next)).append(" the next strategy, `")
          .append(next.contender().label()).append("` (").append(nanos(next.nanosPerOp()))
          .append(" ns)");
    }
    results.stream().filter(r -> r.contender().strategy().equals("heap") && r != pick
            && r != next && !tiedRivals.contains(r))
        .findFirst().ifPresent(heap -> text.append(", and ").append(ratio(pick, heap))
            .append(" `heap`"));
    text.append(". ").append(tie);
    if (!Double.isNaN(pick.bytesPerTimer())) {
      text.append("At the peak of ").append(String.format(Locale.ROOT, "%,d", pick.peakPending()))
          .append(" pending timers it takes ")
          .append(String.format(Locale.ROOT, "%.0f", pick.bytesPerTimer()))
          .append(" bytes per timer, and an event loop on it wakes ")
          .append(String.format(Locale.ROOT, "%,d", pick.wakeups()))
          .append(" times for timers between the recorded advances (")
          .append(String.format(Locale.ROOT, "%,d", pick.idleWakeups())).append(" of them idle). ");
    }
    text.append("Why: ").append(why(profile, pick)).append(' ');
    results.stream().filter(r -> r.contender().strategy().equals(Contender.AGRONA)).findFirst()
        .ifPresent(agrona -> text.append("Agrona's DeadlineTimerWheel replays it in ")
            .append(nanos(agrona.nanosPerOp())).append(" ns per operation (`")
            .append(contender.strategy()).append("` is ").append(ratio(pick, agrona))
            .append(" it); having no next-deadline query, it must be polled every tick while"
                + " timers are pending, ")
            .append(String.format(Locale.ROOT, "%,d", agrona.wakeups()))
            .append(" wake-ups on this trace beyond the recorded advances."));
    if (profile.dropped() > 0) {
      text.append(" Note: the recorder dropped ")
          .append(String.format(Locale.ROOT, "%,d", profile.dropped()))
          .append(" operations, so the trace is incomplete; record with a larger buffer.");
    }
    return text.toString().trim();
  }

  /** Why {@code pick} is preferred to {@code rival}, tied with it: the first measure to differ. */
  private static String preferred(ReplayResult pick, ReplayResult rival) {
    if (!Double.isNaN(pick.bytesPerTimer()) && !Double.isNaN(rival.bytesPerTimer())
        && pick.bytesPerTimer() != rival.bytesPerTimer()) {
      return String.format(Locale.ROOT, " with less memory (%.1f against %.1f bytes per timer)",
          pick.bytesPerTimer(), rival.bytesPerTimer());
    }
    if (pick.meanLateness() != rival.meanLateness()) {
      return String.format(Locale.ROOT, " with less lateness (a mean of %.2f against %.2f ticks)",
          pick.meanLateness(), rival.meanLateness());
    }
    if (pick.wakeups() != rival.wakeups()) {
      return String.format(Locale.ROOT, " with fewer wake-ups (%,d against %,d)", pick.wakeups(),
          rival.wakeups());
    }
    return pick.nanosPerOp() <= rival.nanosPerOp() ? ", and faster in this run"
        : ", and alike in memory, lateness and wake-ups";
  }

  /** The sentence that says which strategies tie with the pick and what decided between them. */
  private static String tie(ReplayResult pick, List<ReplayResult> tiedRivals) {
    StringBuilder names = new StringBuilder();
    for (ReplayResult r : tiedRivals) {
      names.append(names.length() == 0 ? "" : ", ").append('`').append(r.contender().label())
          .append('`');
    }
    double spread = spread(pick);
    for (ReplayResult r : tiedRivals) {
      spread = Math.max(spread, spread(r));
    }
    return String.format(Locale.ROOT, "`%s` and %s are within the noise of this replay: a"
        + " typical chunk of the trace took up to %.0f%% longer in its next-best pass than in its"
        + " best, and results closer than that (or than %.0f%%) count as a tie, so their order in"
        + " time may swap between runs; the advice takes the least memory, then lateness, then"
        + " wake-ups, which do not. ",
        pick.contender().label(), names, 100 * spread, 100 * (TIE - 1));
  }

  private static String why(TraceProfile profile, ReplayResult pick) {
    String shape = String.format(Locale.ROOT,
        "%.0f%% of its timers end cancelled rather than fired, %s distinct %s (median under"
            + " %s ticks, 99th percentile under %s), %.0f%% of the operations move a timer",
        100 * profile.cancelledShare(),
        profile.distinctDelays() > DelayProfile.MAX_DISTINCT
            ? "more than " + DelayProfile.MAX_DISTINCT : Integer.toString(profile.distinctDelays()),
        profile.distinctDelays() == 1 ? "delay" : "delays",
        ticks(profile.medianDelay()), ticks(profile.p99Delay()),
        100 * profile.share(ReplayPass.RESCHEDULE));
    String design = switch (pick.contender().strategy()) {
      case "heap" -> "with at most " + String.format(Locale.ROOT, "%,d", pick.peakPending())
          + " timers pending, the heap's O(log n) sift stays within a few cache lines and beats"
          + " the fixed costs of a wheel";
      case "hitime" -> "hitime files a timer in O(1) into one of 64 bins by the highest bit in"
          + " which its deadline differs from the clock and touches it again only as the clock"
          + " nears it, so timers cancelled or moved early cost one insert and one unlink";
      case "wheel" -> "the leveled wheel schedules, moves and cancels in O(1), radix-sorts a timer"
          + " only as the clock nears it, and its exact next-expiry query lets the loop sleep"
          + " until a timer is due";
      case "cascade" -> "the cascading wheel schedules and cancels in O(1) and re-files a timer"
          + " a level at a time only as the clock nears it, which timers cancelled early never"
          + " pay";
      case "lawn" -> "with so few distinct delays, lawn keeps one first-in, first-out queue per"
          + " delay: a schedule is an append, an expiry pops a queue head, a cancel an unlink,"
          + " all O(1)";
      default -> "it was the cheapest on this mix";
    };
    return shape + "; " + design + ".";
  }

  private static String mix(TraceProfile profile) {
    StringBuilder mix = new StringBuilder();
    for (int kind = 0; kind < ReplayPass.KINDS; kind++) {
      double share = profile.share(kind);
      if (share >= 0.005) {
        mix.append(mix.length() == 0 ? "" : ", ")
            .append(String.format(Locale.ROOT, "%.0f%% %s", 100 * share,
                ReplayPass.KIND_NAMES[kind]));
      }
    }
    return mix.toString();
  }

  private static String ratio(ReplayResult pick, ReplayResult other) {
    double ratio = other.nanosPerOp() / pick.nanosPerOp();
    return ratio >= 1
        ? String.format(Locale.ROOT, "%.2f× as fast as", ratio)
        : String.format(Locale.ROOT, "%.2f× slower than", 1 / ratio);
  }

  /** A spread as a percentage: "+12%", or "-" if not measured. */
  static String percent(double spread) {
    return Double.isNaN(spread) ? "-" : String.format(Locale.ROOT, "+%.0f%%", 100 * spread);
  }

  static String nanos(double value) {
    return Double.isNaN(value) ? "-" : value >= 100
        ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  private static String ticks(long value) {
    return value == Long.MAX_VALUE ? "2^63" : String.format(Locale.ROOT, "%,d", value);
  }
}
