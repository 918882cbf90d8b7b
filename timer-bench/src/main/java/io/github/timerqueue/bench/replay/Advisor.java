package io.github.timerqueue.bench.replay;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Turns a replay's results into a recommendation: which strategy, with which options and
 * resolution, serves the trace best, and why.
 *
 * <p>The measure is the cost of the trace's own mix: mean nanoseconds per recorded operation, every
 * kind weighted by how often the trace does it, wake-ups included in the advances. Among the
 * timerqueue strategies within {@value #TIE}&times; of the fastest, the one with the least memory
 * per timer is chosen, since their difference in time is within what a shared machine's noise
 * makes of a replay. Agrona's wheel is reported beside it, faster or not.
 */
final class Advisor {
  /** Results within this factor of the fastest count as a tie. */
  static final double TIE = 1.05;

  private Advisor() {}

  /** The recommended contender: a timerqueue strategy, never Agrona. */
  static ReplayResult pick(List<ReplayResult> results) {
    List<ReplayResult> ours = results.stream()
        .filter(r -> !r.contender().strategy().equals(Contender.AGRONA))
        .toList();
    if (ours.isEmpty()) {
      throw new IllegalArgumentException("no timerqueue strategy was replayed");
    }
    double fastest = ours.stream().mapToDouble(ReplayResult::nanosPerOp).min().orElseThrow();
    return ours.stream()
        .filter(r -> r.nanosPerOp() <= fastest * TIE)
        .min(Comparator.comparingDouble(
            (ReplayResult r) -> Double.isNaN(r.bytesPerTimer()) ? 0 : r.bytesPerTimer())
            .thenComparingDouble(ReplayResult::nanosPerOp))
        .orElseThrow();
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
    ReplayResult next = results.stream()
        .filter(r -> r != pick && !r.contender().strategy().equals(Contender.AGRONA)
            && !r.contender().strategy().equals(contender.strategy()))
        .min(Comparator.comparingDouble(ReplayResult::nanosPerOp)).orElse(null);
    if (next != null && next.nanosPerOp() < pick.nanosPerOp()) {
      text.append(", within ").append(String.format(Locale.ROOT, "%.0f%%", (TIE - 1) * 100))
          .append(" of `").append(next.contender().label()).append("` (")
          .append(nanos(next.nanosPerOp())).append(" ns) with less memory (")
          .append(String.format(Locale.ROOT, "%.0f against %.0f", pick.bytesPerTimer(),
              next.bytesPerTimer())).append(" bytes per timer)");
    } else if (next != null) {
      text.append(", ").append(ratio(pick, next)).append(" the next strategy, `")
          .append(next.contender().label()).append("` (").append(nanos(next.nanosPerOp()))
          .append(" ns)");
    }
    results.stream().filter(r -> r.contender().strategy().equals("heap") && r != pick
            && r != next)
        .findFirst().ifPresent(heap -> text.append(", and ").append(ratio(pick, heap))
            .append(" `heap`"));
    text.append(". ");
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

  private static String why(TraceProfile profile, ReplayResult pick) {
    String shape = String.format(Locale.ROOT,
        "%.0f%% of its timers end cancelled rather than fired, %s distinct delays (median under"
            + " %s ticks, 99th percentile under %s), %.0f%% of the operations move a timer",
        100 * profile.cancelledShare(),
        profile.distinctDelays() > DelayProfile.MAX_DISTINCT
            ? "more than " + DelayProfile.MAX_DISTINCT : Integer.toString(profile.distinctDelays()),
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

  static String nanos(double value) {
    return Double.isNaN(value) ? "-" : value >= 100
        ? String.format(Locale.ROOT, "%,.0f", value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  private static String ticks(long value) {
    return value == Long.MAX_VALUE ? "2^63" : String.format(Locale.ROOT, "%,d", value);
  }
}
