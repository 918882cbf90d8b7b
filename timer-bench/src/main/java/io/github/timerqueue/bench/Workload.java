package io.github.timerqueue.bench;

import java.util.Locale;

/**
 * The workloads of the comparison: which benchmark runs each, how its score is reported, and what
 * it means for Agrona's wheel, whose API cannot express everything a {@code TimerQueue} does.
 */
enum Workload {
  SCHEDULE_CANCEL(
      "schedule+cancel", ScheduleCancelBenchmark.class, false, true, null),
  RESCHEDULE(
      "reschedule", RescheduleBenchmark.class, false, true,
      "no reschedule in DeadlineTimerWheel's API: measured as cancelTimer + scheduleTimer,"
          + " which gives the timer a new id"),
  EXPIRE(
      "expire", ExpireBenchmark.class, true, true,
      "advance = poll until the wheel's tick stops moving (poll looks at one tick per call);"
          + " a fired timer is re-armed with scheduleTimer, which gives it a new id"),
  TTL(
      "TTL expire", TtlExpireBenchmark.class, true, true,
      "as expire"),
  IDLE_ADVANCE(
      "idle advance", IdleAdvanceBenchmark.class, false, true,
      "advance = poll until the wheel's tick stops moving; every poll scans its spoke's array,"
          + " far timers included"),
  NEXT_EXPIRY_DELAY(
      "nextExpiryDelay", NextExpiryDelayBenchmark.class, false, false,
      "not expressible: DeadlineTimerWheel has no query for its next deadline");

  private final String label;
  private final Class<? extends TimerBenchmark> benchmark;
  private final boolean perFiredTimer;
  private final boolean runsOnAgrona;
  private final String agronaNote;

  Workload(
      String label,
      Class<? extends TimerBenchmark> benchmark,
      boolean perFiredTimer,
      boolean runsOnAgrona,
      String agronaNote) {
    this.label = label;
    this.benchmark = benchmark;
    this.perFiredTimer = perFiredTimer;
    this.runsOnAgrona = runsOnAgrona;
    this.agronaNote = agronaNote;
  }

  /** The name in tables and charts. */
  String label() {
    return label;
  }

  /** The name on the launcher's command line: {@code schedule-cancel}, {@code ttl}, ... */
  String option() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  Class<? extends TimerBenchmark> benchmark() {
    return benchmark;
  }

  /**
   * Whether the score is reported per fired timer (from the {@code fired} counter) rather than per
   * operation (one advance of the clock).
   */
  boolean perFiredTimer() {
    return perFiredTimer;
  }

  /** Whether the workload can be run on {@code contender}. */
  boolean runsOn(String contender) {
    return runsOnAgrona || !Contenders.AGRONA.equals(contender);
  }

  /** What the results should say about Agrona on this workload, or {@code null}. */
  String agronaNote() {
    return agronaNote;
  }

  /** The workload whose benchmark is {@code benchmarkMethod} ({@code class.method}). */
  static Workload ofBenchmark(String benchmarkMethod) {
    for (Workload workload : values()) {
      if (benchmarkMethod.startsWith(workload.benchmark.getName() + ".")) {
        return workload;
      }
    }
    throw new IllegalArgumentException("not a timer-bench benchmark: " + benchmarkMethod);
  }
}
