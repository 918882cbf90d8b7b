package io.github.timerqueue.bench.replay;

import java.util.Arrays;

/**
 * A map from {@code long} keys to non-negative {@code int} values: open addressing with linear
 * probing and backward-shift deletion, no boxing, resized to stay at most half full. The replay's
 * map from trace ids to slots, and Agrona's timer ids to slots.
 */
final class LongIntMap {
  /** What {@link #get} and {@link #remove} return for a key that is not there. */
  static final int ABSENT = -1;

  private long[] keys = new long[16];
  private int[] values = new int[16];
  private int size;

  LongIntMap() {
    Arrays.fill(values, ABSENT);
  }

  int size() {
    return size;
  }

  int get(long key) {
    int mask = keys.length - 1;
    for (int i = index(key, mask); values[i] != ABSENT; i = (i + 1) & mask) {
      if (keys[i] == key) {
        return values[i];
      }
    }
    return ABSENT;
  }

  /** Maps {@code key} to {@code value} (at least 0), replacing any earlier value. */
  void put(long key, int value) {
    int mask = keys.length - 1;
    int i = index(key, mask);
    for (; values[i] != ABSENT; i = (i + 1) & mask) {
      if (keys[i] == key) {
        values[i] = value;
        return;
      }
    }
    keys[i] = key;
    values[i] = value;
    if (++size * 2 > keys.length) {
      resize();
    }
  }

  /** Removes {@code key}; returns its value, or {@link #ABSENT}. */
  int remove(long key) {
    int mask = keys.length - 1;
    int i = index(key, mask);
    while (values[i] != ABSENT && keys[i] != key) {
      i = (i + 1) & mask;
    }
    int value = values[i];
    if (value == ABSENT) {
      return ABSENT;
    }
    size--;
    // Backward shift: move later entries of the probe run into the hole, so no tombstones.
    int hole = i;
    for (int j = (i + 1) & mask; values[j] != ABSENT; j = (j + 1) & mask) {
      int home = index(keys[j], mask);
      if (((j - home) & mask) >= ((j - hole) & mask)) {
        keys[hole] = keys[j];
        values[hole] = values[j];
        hole = j;
      }
    }
    values[hole] = ABSENT;
    return value;
  }

  void clear() {
    Arrays.fill(values, ABSENT);
    size = 0;
  }

  private void resize() {
    long[] oldKeys = keys;
    int[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new int[oldValues.length * 2];
    Arrays.fill(values, ABSENT);
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] != ABSENT) {
        put(oldKeys[i], oldValues[i]);
      }
    }
  }

  private static int index(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }
}
