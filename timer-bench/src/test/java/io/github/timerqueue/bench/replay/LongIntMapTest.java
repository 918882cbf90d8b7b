package io.github.timerqueue.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongIntMapTest {

  @Test
  void agreesWithAHashMapUnderRandomPutsAndRemoves() {
    LongIntMap map = new LongIntMap();
    Map<Long, Integer> model = new HashMap<>();
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 200_000; i++) {
      // Few distinct keys, so that probe runs collide and removals shift entries back.
      long key = random.nextBoolean() ? random.nextLong(2_000) : random.nextLong(2_000) << 40;
      if (random.nextInt(3) == 0) {
        Integer expected = model.remove(key);
        assertThat(map.remove(key)).isEqualTo(expected == null ? LongIntMap.ABSENT : expected);
      } else {
        int value = random.nextInt(1 << 20);
        model.put(key, value);
        map.put(key, value);
      }
      assertThat(map.size()).isEqualTo(model.size());
    }
    model.forEach((key, value) -> assertThat(map.get(key)).isEqualTo(value));
    map.clear();
    assertThat(map.size()).isZero();
    assertThat(map.get(model.keySet().iterator().next())).isEqualTo(LongIntMap.ABSENT);
  }
}
