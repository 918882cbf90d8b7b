package io.github.timerqueue.wheel;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;

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

  /**
   * Where a timer is: {@code "level i"} (stored by key), {@code "coarse level i"}, {@code
   * "overflow"}, {@code "due"}, or {@code "not pending"}.
   */
  static String where(TimingWheel<?> wheel, TimerHandle<?> handle) {
    WheelTimer<?> timer = (WheelTimer<?>) handle;
    int position = timer.position;
    switch (position) {
      case TimingWheel.NOT_PENDING:
        return "not pending";
      case TimingWheel.DUE:
      case TimingWheel.NEXT_DUE:
        return "due";
      case TimingWheel.OVERFLOW:
        return "overflow";
      default:
        for (int level = wheel.levels - 1; level >= 0; level--) {
          if (position >= wheel.coarseBase[level]) {
            return "coarse level " + level;
          }
          if (position >= wheel.naturalBase[level]) {
            return "level " + level;
          }
        }
        throw new AssertionError("position " + position + " is not a list");
    }
  }

  /** The largest key the levels hold: the seed's {@code max_allowed_key}. */
  static long maxAllowedKey(TimingWheel<?> wheel) {
    return wheel.maxKey[wheel.levels - 1];
  }

  /** How many timers the levels hold, coarse slots included, per level. */
  static int timersInLevel(TimingWheel<?> wheel, int level) {
    return wheel.counts[level] + wheel.counts[wheel.levels + level];
  }
}
