package io.github.timerqueue.bench;

import java.util.SplittableRandom;

/**
 * A pre-generated, endlessly repeated sequence of delays, so that benchmarks measure the timers and
 * not the random generator. Built from a fixed seed: every contender draws the same delays.
 */
final class DelaySequence {
  private final long[] delays;
  private int next;

  private DelaySequence(long[] delays) {
    this.delays = delays;
  }

  /** Delays drawn uniformly from {@code [min, max]}. */
  static DelaySequence uniform(int length, long min, long max, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] delays = new long[length];
    for (int i = 0; i < length; i++) {
      delays[i] = random.nextLong(min, max + 1);
    }
    return new DelaySequence(delays);
  }

  /** Delays drawn uniformly among {@code choices}. */
  static DelaySequence among(int length, long[] choices, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] delays = new long[length];
    for (int i = 0; i < length; i++) {
      delays[i] = choices[random.nextInt(choices.length)];
    }
    return new DelaySequence(delays);
  }

  /**
   * The next delay. Kept within C2's 35 bytes of bytecode (MaxInlineSize), so that it is inlined
   * into every contender's hot loop whatever the profile of its caller says when it is compiled:
   * at 36 bytes it stayed a call in every JVM where the caller's count had frozen below 100 (see
   * {@link AgronaWheels#INLINE_SCHEDULE_TIMER}).
   */
  long next() {
    int at = next;
    next = at + 1 < delays.length ? at + 1 : 0;
    return delays[at];
  }
}
