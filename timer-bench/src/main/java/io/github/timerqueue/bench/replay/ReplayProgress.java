package io.github.timerqueue.bench.replay;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The progress of a replay, for a person waiting on a long trace: a line as each contender ends,
 * with the time left for the whole replay, and every {@value #PRINT_EVERY_SECONDS} s of a pass a
 * line with the share of the pass done, the time left for it and the time left for the whole
 * replay.
 *
 * <p>A contender's work is counted in passes over the trace: the warm-up (the share of the trace
 * its records take), the measured passes, and the memory pass (up to the peak population; counted
 * as a whole pass until it starts). What is left of the contender runs at the speed of the pass
 * running, which the warm-up, still compiling, does not tell: during it only the time left for
 * the warm-up is given. Contenders not yet started are assumed to take as long as the one running,
 * so a contender much slower than the others (Agrona's wheel, polled every tick of a long idle
 * trace) makes the estimate short until it runs.
 */
final class ReplayProgress {
  static final long PRINT_EVERY_SECONDS = 5;
  /** The limit of a phase that replays the whole trace. */
  static final long WHOLE_TRACE = Long.MAX_VALUE;

  private final PrintStream out;
  private final int contenders;
  private final long fileBytes;
  private final long printEveryNanos;
  private final long start = System.nanoTime();
  /** The number of the contender running, from 1; contenders before it ran elsewhere or ended. */
  private int index;
  private String label;
  private long contenderStart;
  private String phase;
  private long phaseStart;
  private long lastPrint;
  /** The records after which the running phase stops, or {@link #WHOLE_TRACE}. */
  private long limit;
  /** Passes the ended phases of this contender took. */
  private double passesDone;
  /** Passes the running phase takes: 1 for a whole pass, estimated as it runs for a shorter one. */
  private double phasePasses;
  /** Passes the phases still to come take. */
  private double passesAfter;
  /** The running phase's number for this contender, from 1: the first is the warm-up. */
  private int phaseNumber;

  /**
   * Progress for {@code contenders} contenders, of which {@code started} began before this one
   * (in a forked JVM, the parent's count).
   */
  ReplayProgress(PrintStream out, int contenders, int started, long fileBytes) {
    this(out, contenders, started, fileBytes, PRINT_EVERY_SECONDS * 1_000_000_000L);
  }

  /** The same, with a line during a pass at most every {@code printEveryNanos}. */
  ReplayProgress(PrintStream out, int contenders, int started, long fileBytes,
      long printEveryNanos) {
    this.out = out;
    this.contenders = contenders;
    this.index = started;
    this.fileBytes = fileBytes;
    this.printEveryNanos = printEveryNanos;
  }

  /** The next contender begins. */
  void begin(String label) {
    this.label = label;
    index++;
    contenderStart = System.nanoTime();
    passesDone = 0;
    phasePasses = 0;
    phaseNumber = 0;
  }

  /**
   * A phase of the running contender begins: it stops after {@code limit} records (or {@link
   * #WHOLE_TRACE}), and {@code passesAfter} passes of other phases follow it.
   */
  void phase(String phase, long limit, double passesAfter) {
    passesDone += phasePasses;
    phaseNumber++;
    this.phase = phase;
    this.limit = limit;
    this.passesAfter = passesAfter;
    phasePasses = limit == WHOLE_TRACE ? 1 : 0;
    phaseStart = lastPrint = System.nanoTime();
  }

  /** Called every 2^16 records with the records replayed and the byte offset reached. */
  void at(long records, long offset) {
    if (records <= 0 || offset <= 0) {
      return;
    }
    double fraction = limit == WHOLE_TRACE ? (double) offset / fileBytes
        : Math.min(1, (double) records / limit);
    if (limit != WHOLE_TRACE) {
      // The share of the file this phase will have read when it stops.
      phasePasses = Math.min(1, offset / fraction / fileBytes);
    }
    long now = System.nanoTime();
    if (now - lastPrint < printEveryNanos) {
      return;
    }
    lastPrint = now;
    double phaseElapsed = (now - phaseStart) / 1e9;
    String phaseLeft = minutes(phaseElapsed / fraction - phaseElapsed);
    if (phaseNumber == 1) {
      out.printf(Locale.ROOT, "    %s, %s: %.0f%% of this pass, about %s left for it%n", label,
          phase, 100 * fraction, phaseLeft);
      return;
    }
    double secondsPerPass = phaseElapsed / (fraction * phasePasses);
    double contenderLeft = ((1 - fraction) * phasePasses + passesAfter) * secondsPerPass;
    double contenderTotal = (now - contenderStart) / 1e9 + contenderLeft;
    double replayLeft = contenderLeft + (contenders - index) * contenderTotal;
    out.printf(Locale.ROOT, "    %s, %s: %.0f%% of this pass, about %s left for it, %s for the"
        + " whole replay%n", label, phase, 100 * fraction, phaseLeft, minutes(replayLeft));
  }

  /** The running contender ended with {@code summary}. */
  void done(String summary) {
    double elapsed = (System.nanoTime() - start) / 1e9;
    double left = elapsed / index * (contenders - index);
    out.printf(Locale.ROOT, "[%d/%d] %-28s %s  (about %s left)%n", index, contenders, label,
        summary, minutes(left));
  }

  static String minutes(double seconds) {
    long whole = Math.round(seconds);
    return String.format(Locale.ROOT, "%d:%02d", whole / 60, whole % 60);
  }
}
