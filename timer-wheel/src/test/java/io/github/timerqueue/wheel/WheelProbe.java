package io.github.timerqueue.wheel;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.List;

/** Test helpers that create wheels and tell where in a wheel a timer is. */
final class WheelProbe {

  private WheelProbe() {}

  static <T> TimingWheel<T> wheel(String levelBits, long startTime, long resolution) {
    return TimingWheel.create(TimerConfig.builder()
        .startTime(startTime)
        .resolution(resolution)
        .option(TimingWheel.LEVEL_BITS_OPTION, levelBits)
        .build());
  }

  /** Schedules {@code count} timers at {@code deadline}, with payloads 0, 1, 2, ... */
  static List<TimerHandle<Integer>> scheduleAt(
      TimingWheel<Integer> wheel, long deadline, int count) {
    List<TimerHandle<Integer>> timers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      timers.add(wheel.schedule(deadline, i));
    }
    return timers;
  }

  /**
   * Where a timer is: {@code "level i"} (stored by key), {@code "coarse level i"}, {@code
   * "overflow"}, {@code "due"}, or {@code "not pending"}.
   */
  static String where(TimingWheel<?> wheel, TimerHandle<?> handle) {
    WheelTimer<?> timer = (WheelTimer<?>) handle;
    if (timer.slot < 0) {
      return "not pending";
    }
    if (timer.isListed()) {
      return (timer.isListedCoarse() ? "coarse level " : "level ") + timer.level().index;
    }
    Bucket<?> bucket = timer.bucket();
    if (bucket == wheel.due || bucket == wheel.firing) {
      return "due";
    }
    if (bucket == wheel.overflow) {
      return "overflow";
    }
    if (bucket == wheel.sorted) {
      return "level 0";
    }
    return (bucket.coarse ? "coarse level " : "level ") + bucket.level.index;
  }

  /**
   * The slot a pending timer is in, as {@code "slot s of level i"} or {@code "coarse slot s of
   * level i"}, whether it is in the slot's short list or in its bucket; else {@link #where}.
   */
  static String slotOf(TimerHandle<?> handle) {
    WheelTimer<?> timer = (WheelTimer<?>) handle;
    if (timer.slot < 0) {
      return where(timer.owner(), handle);
    }
    if (timer.isListed()) {
      return (timer.isListedCoarse() ? "coarse slot " : "slot ") + timer.levelSlot() + " of level "
          + timer.level().index;
    }
    Bucket<?> bucket = timer.bucket();
    if (bucket.level == null) {
      return where(bucket.owner, handle);
    }
    return (bucket.coarse ? "coarse slot " : "slot ") + bucket.index + " of level "
        + bucket.level.index;
  }

  /** The largest key the levels hold: {@code Timing_wheel}'s {@code max_allowed_key}. */
  static long maxAllowedKey(TimingWheel<?> wheel) {
    return wheel.levels[wheel.levels.length - 1].maxKey;
  }

  /** How many timers the levels hold, coarse slots included, per level. */
  static int timersInLevel(TimingWheel<?> wheel, int level) {
    return wheel.levels[level].keyed + wheel.levels[level].coarse;
  }

  /** How many slots the levels have, both kinds. */
  static int slots(TimingWheel<?> wheel) {
    int slots = 0;
    for (Level<?> level : wheel.levels) {
      slots += 2 * (level.slotMask + 1);
    }
    return slots;
  }
}
