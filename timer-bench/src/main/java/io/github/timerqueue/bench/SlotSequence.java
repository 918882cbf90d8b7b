package io.github.timerqueue.bench;

import java.util.SplittableRandom;

/**
 * A pre-generated, endlessly repeated sequence of random timer slots: which pending timer the next
 * operation touches. Built from a fixed seed: every contender touches the same timers.
 */
final class SlotSequence {
  private final int[] slots;
  private int next;

  private SlotSequence(int[] slots) {
    this.slots = slots;
  }

  /** Slots drawn uniformly from {@code [0, bound)}. */
  static SlotSequence uniform(int length, int bound, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int[] slots = new int[length];
    for (int i = 0; i < length; i++) {
      slots[i] = random.nextInt(bound);
    }
    return new SlotSequence(slots);
  }

  int next() {
    int slot = slots[next];
    if (++next == slots.length) {
      next = 0;
    }
    return slot;
  }
}
