package io.github.timerqueue.cascade;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The test of a timer's due tick from its key ({@link Ticks#dueKeysFrom}, {@link
 * Ticks#dueKeySpan}) says what deriving its tick ({@link Ticks#tickOf}) says, for every timer
 * whose tick is at or after the base: at the first ticks, in the middle of the range, and at its
 * end, where keys overflow to the last tick.
 */
class CascadeTicksTest {

  @ParameterizedTest(name = "resolution {0}")
  @ValueSource(longs = {1, 2, 3, 10, 1024, 1_000_000_007L, Long.MAX_VALUE})
  void aKeyIsDueAtTheBaseExactlyWhenItsTickIsTheBase(long resolution) {
    Ticks ticks = new Ticks(resolution);
    long lastTick = ticks.ceil(-1L);
    long lastWholeTick = Long.divideUnsigned(-1L, resolution);
    SplittableRandom random = new SplittableRandom(resolution);
    List<Long> bases = new ArrayList<>(List.of(0L, 1L, 2L, 3L, 1L << 40,
        lastWholeTick - 1, lastWholeTick, lastTick - 1, lastTick));
    for (int i = 0; i < 20; i++) {
      bases.add(Long.remainderUnsigned(random.nextLong(), lastTick) + 1);
    }
    int dueSeen = 0;
    for (long base : bases) {
      long overflowBound = ticks.overflowBound(base);
      long from = ticks.dueKeysFrom(base, overflowBound);
      long span = ticks.dueKeySpan(base);
      List<Long> keys = new ArrayList<>(List.of(0L, 1L, 2L, -1L, -2L,
          overflowBound - 1, overflowBound, overflowBound + 1, overflowBound + 2));
      for (long tick = base - 2; tick != base + 3; tick++) {
        long start = ticks.start(tick);
        keys.addAll(List.of(start - 1, start, start + 1));
      }
      for (int i = 0; i < 200; i++) {
        keys.add(random.nextLong());
      }
      for (long key : keys) {
        long tick = ticks.tickOf(key, overflowBound);
        if (Long.compareUnsigned(tick, base) < 0 || base == 0 && key == 0) {
          // Not a timer in the wheel: it would have been due when it was armed.
          continue;
        }
        boolean due = Long.compareUnsigned(key - from, span) <= 0;
        assertThat(due)
            .as("key %s at base %s, tick %s", Long.toUnsignedString(key),
                Long.toUnsignedString(base), Long.toUnsignedString(tick))
            .isEqualTo(tick == base);
        dueSeen += due ? 1 : 0;
      }
    }
    assertThat(dueSeen).as("due keys met").isGreaterThan(bases.size());
  }
}
