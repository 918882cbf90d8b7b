package io.github.timerqueue.lawn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LongObjectMapTest {

  @Test
  void newMapIsEmpty() {
    LongObjectMap<String> map = new LongObjectMap<>();

    assertThat(map.size()).isZero();
    assertThat(map.get(0)).isNull();
    assertThat(map.remove(0)).isNull();
    assertThat(map).hasToString("{}");
  }

  @Test
  void putGetReplaceAndRemove() {
    LongObjectMap<String> map = new LongObjectMap<>();

    assertThat(map.put(5, "five")).isNull();
    assertThat(map.put(0, "zero")).isNull();
    assertThat(map.put(Long.MAX_VALUE, "max")).isNull();
    assertThat(map.size()).isEqualTo(3);
    assertThat(map.get(5)).isEqualTo("five");
    assertThat(map.get(0)).isEqualTo("zero");
    assertThat(map.get(Long.MAX_VALUE)).isEqualTo("max");
    assertThat(map.get(6)).isNull();

    assertThat(map.put(5, "FIVE")).isEqualTo("five");
    assertThat(map.size()).isEqualTo(3);
    assertThat(map.get(5)).isEqualTo("FIVE");

    assertThat(map.remove(5)).isEqualTo("FIVE");
    assertThat(map.remove(5)).isNull();
    assertThat(map.get(5)).isNull();
    assertThat(map.size()).isEqualTo(2);
    assertThat(map.get(0)).isEqualTo("zero");
    assertThat(map.get(Long.MAX_VALUE)).isEqualTo("max");
  }

  @Test
  void negativeKeysAreNeverPresentAndCannotBePutOrRemoved() {
    LongObjectMap<String> map = new LongObjectMap<>();
    map.put(1, "one");

    assertThat(map.get(-1)).isNull();
    assertThat(map.get(Long.MIN_VALUE)).isNull();
    assertThatThrownBy(() -> map.put(-1, "minus one"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    assertThatThrownBy(() -> map.remove(-7))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-7");
    assertThat(map.size()).isEqualTo(1);
    assertThat(map.get(1)).isEqualTo("one");
  }

  @Test
  void nullValuesAreRejected() {
    LongObjectMap<String> map = new LongObjectMap<>();

    assertThatThrownBy(() -> map.put(1, null))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("value");
    assertThat(map.size()).isZero();
  }

  @Test
  void keepsSmallTablesAnEighthFullAndLargeOnesHalfFull() {
    LongObjectMap<Long> map = new LongObjectMap<>();
    for (long key = 0; key < 16; key++) {
      map.put(key, key);
    }
    assertThat(map.capacity()).isEqualTo(128);

    map.put(16, 16L);
    assertThat(map.capacity()).isEqualTo(256);

    int sparse = LongObjectMap.SPARSE_CAPACITY;
    for (long key = 17; key < sparse / 8; key++) {
      map.put(key, key);
    }
    assertThat(map.capacity()).as("the largest sparse table, full").isEqualTo(sparse);

    map.put(Long.MAX_VALUE, 0L);
    assertThat(map.capacity()).as("past the sparse tables").isEqualTo(2 * sparse);
    for (long key = sparse / 8; map.size() < sparse; key++) {
      map.put(key, key);
    }
    assertThat(map.capacity()).as("half full").isEqualTo(2 * sparse);

    map.put(1L << 40, 0L);
    assertThat(map.capacity()).isEqualTo(4 * sparse);
  }

  @Test
  void growsPastItsInitialCapacityAndKeepsEveryEntry() {
    LongObjectMap<Long> map = new LongObjectMap<>();
    for (long key = 0; key < 10_000; key++) {
      map.put(key * 1_000, key);
    }

    assertThat(map.size()).isEqualTo(10_000);
    for (long key = 0; key < 10_000; key++) {
      assertThat(map.get(key * 1_000)).isEqualTo(key);
      assertThat(map.get(key * 1_000 + 1)).isNull();
    }
  }

  @Test
  void removingFromTheMiddleOfProbeRunsKeepsTheRestReachable() {
    // Seven keys whose probes start in the last two or first two slots of the 64-slot table they
    // fill make one probe run that wraps around its end; removing them one by one in random order
    // exercises the backward shift that closes each hole.
    long[] crowding = LongStream.range(0, 100_000)
        .filter(key -> Math.floorMod(LongObjectMap.homeSlot(key, 64) + 2, 64) < 4)
        .toArray();
    SplittableRandom random = new SplittableRandom(42);
    for (int round = 0; round < 500; round++) {
      LongObjectMap<Long> map = new LongObjectMap<>();
      long[] keys = random.ints(0, crowding.length).distinct().limit(7)
          .mapToLong(index -> crowding[index]).toArray();
      for (long key : keys) {
        map.put(key, key);
      }
      assertThat(map.capacity()).as("the table the keys were chosen for").isEqualTo(64);
      for (int i = 0; i < keys.length; i++) {
        assertThat(map.remove(keys[i])).isEqualTo(keys[i]);
        assertThat(map.get(keys[i])).isNull();
        for (int j = i + 1; j < keys.length; j++) {
          assertThat(map.get(keys[j])).as("round %d, key %d after removing %d", round, keys[j],
              keys[i]).isEqualTo(keys[j]);
        }
        assertThat(map.size()).isEqualTo(keys.length - 1 - i);
      }
    }
  }

  @Test
  void endlessPutAndRemoveChurnAgreesWithAHashMap() {
    SplittableRandom random = new SplittableRandom(7);
    LongObjectMap<Long> map = new LongObjectMap<>();
    Map<Long, Long> model = new HashMap<>();
    for (int op = 0; op < 200_000; op++) {
      // A small key space keeps the table crowded with collisions; some keys are huge.
      long key = random.nextInt(4) == 0 ? Long.MAX_VALUE - random.nextInt(50) : random.nextInt(300);
      int roll = random.nextInt(3);
      if (roll == 0) {
        assertThat(map.put(key, (long) op)).as("put %d at op %d", key, op)
            .isEqualTo(model.put(key, (long) op));
      } else if (roll == 1) {
        assertThat(map.remove(key)).as("remove %d at op %d", key, op).isEqualTo(model.remove(key));
      } else {
        assertThat(map.get(key)).as("get %d at op %d", key, op).isEqualTo(model.get(key));
      }
      assertThat(map.size()).isEqualTo(model.size());
    }
    for (Map.Entry<Long, Long> entry : model.entrySet()) {
      assertThat(map.get(entry.getKey())).isEqualTo(entry.getValue());
    }
  }

  @Test
  void toStringListsTheEntries() {
    LongObjectMap<String> map = new LongObjectMap<>();
    map.put(3, "three");

    assertThat(map).hasToString("{3=three}");
  }
}
