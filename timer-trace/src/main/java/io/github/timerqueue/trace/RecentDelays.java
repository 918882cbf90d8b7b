package io.github.timerqueue.trace;

/**
 * The last {@value Binary#RECENT_DELAYS} distinct delays, most recent first, which the binary
 * writer and reader keep in step: a delay found here is written as its position (three bits of the
 * tag) instead of a varint, so a workload with a few fixed timeouts pays no byte for its delays.
 */
final class RecentDelays {
  private final long[] delays = new long[Binary.RECENT_DELAYS];

  RecentDelays() {
    java.util.Arrays.fill(delays, -1); // delays in ticks are never negative: no false match
  }

  /** Returns the position (1 to 7) of {@code ticks}, or 0 if it is not recent. */
  int find(long ticks) {
    for (int i = 0; i < delays.length; i++) {
      if (delays[i] == ticks) {
        return i + 1;
      }
    }
    return 0;
  }

  /** Returns the delay at {@code position} (1 to 7). */
  long at(int position) {
    return delays[position - 1];
  }

  /** Makes {@code ticks} the most recent delay: moves it to the front, or inserts it there. */
  void use(long ticks) {
    int i = 0;
    while (i < delays.length - 1 && delays[i] != ticks) {
      i++;
    }
    System.arraycopy(delays, 0, delays, 1, i);
    delays[0] = ticks;
  }
}
