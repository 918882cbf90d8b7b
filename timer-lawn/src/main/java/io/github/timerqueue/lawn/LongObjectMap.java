package io.github.timerqueue.lawn;

import java.util.Arrays;
import java.util.Objects;

/**
 * A map from non-negative {@code long} keys to non-null values that does not box its keys: the
 * lawn's map from a TTL to its queue.
 *
 * <p>Open addressing with linear probing over a power-of-two table of primitive keys beside a table
 * of values. A table of up to {@value #SPARSE_CAPACITY} slots is kept at most an eighth full, so
 * that a lookup almost always ends at the first slot it probes: the lawn looks up a TTL for every
 * timer it arms, among few TTLs, and a probe run of uncertain length costs more there, in
 * mispredicted branches, than the few kilobytes a sparse table takes. A larger table, which is
 * not in the cache anyway, is kept at most half full to stay compact. Keys are spread by Fibonacci
 * hashing (multiplying by 2<sup>64</sup> divided by the golden ratio and keeping the top bits),
 * which scatters the runs of consecutive TTLs that timers typically use. Removal shifts the later
 * entries of the probe run back into the hole instead of leaving a tombstone, so a map that sees
 * endless put and remove churn (a TTL queue that empties and refills) keeps its probe runs as
 * short as a fresh one. Nothing is allocated except when the table grows; it never shrinks.
 *
 * <p>{@code get}, {@code put} and {@code remove} are expected {@code O(1)}. Not thread-safe.
 *
 * @param <V> the type of the values
 */
final class LongObjectMap<V> {
  /** Marks a free slot: no valid key is negative. */
  private static final long FREE = -1;
  private static final long FIBONACCI = 0x9E3779B97F4A7C15L;
  private static final int INITIAL_CAPACITY = 8;
  /** The largest table kept at most an eighth full; larger ones are kept at most half full. */
  static final int SPARSE_CAPACITY = 1 << 10;

  private long[] keys;
  private V[] values;
  private int size;

  LongObjectMap() {
    allocate(INITIAL_CAPACITY);
  }

  /** Returns the number of keys in the map. */
  int size() {
    return size;
  }

  /** Returns the value of {@code key}, or {@code null} if it has none (no negative key has one). */
  V get(long key) {
    long[] keys = this.keys;
    int mask = keys.length - 1;
    // A negative key ends the probe at the first free slot, whose value is null.
    for (int slot = slotOf(key); ; slot = (slot + 1) & mask) {
      long found = keys[slot];
      if (found == key) {
        return values[slot];
      }
      if (found == FREE) {
        return null;
      }
    }
  }

  /**
   * Maps {@code key} to {@code value}, replacing any earlier value.
   *
   * @return the earlier value, or {@code null} if there was none
   * @throws IllegalArgumentException if {@code key} is negative
   * @throws NullPointerException if {@code value} is {@code null}
   */
  V put(long key, V value) {
    requireValidKey(key);
    Objects.requireNonNull(value, "value");
    int mask = keys.length - 1;
    int slot = slotOf(key);
    while (keys[slot] != FREE) {
      if (keys[slot] == key) {
        V previous = values[slot];
        values[slot] = value;
        return previous;
      }
      slot = (slot + 1) & mask;
    }
    keys[slot] = key;
    values[slot] = value;
    if (++size > maxSize(keys.length)) {
      grow();
    }
    return null;
  }

  /**
   * Removes {@code key} and its value.
   *
   * @return the value it had, or {@code null} if it had none
   * @throws IllegalArgumentException if {@code key} is negative
   */
  V remove(long key) {
    requireValidKey(key);
    long[] keys = this.keys;
    int mask = keys.length - 1;
    int hole = slotOf(key);
    while (keys[hole] != key) {
      if (keys[hole] == FREE) {
        return null;
      }
      hole = (hole + 1) & mask;
    }
    V removed = values[hole];
    // Backward-shift deletion: an entry later in the run moves into the hole unless its home slot
    // lies after the hole (cyclically), where moving it would put it before its home.
    for (int next = (hole + 1) & mask; keys[next] != FREE; next = (next + 1) & mask) {
      int home = slotOf(keys[next]);
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        keys[hole] = keys[next];
        values[hole] = values[next];
        hole = next;
      }
    }
    keys[hole] = FREE;
    values[hole] = null;
    size--;
    return removed;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("{");
    for (int slot = 0; slot < keys.length; slot++) {
      if (keys[slot] != FREE) {
        text.append(text.length() > 1 ? ", " : "").append(keys[slot]).append('=')
            .append(values[slot]);
      }
    }
    return text.append('}').toString();
  }

  private int slotOf(long key) {
    return homeSlot(key, keys.length);
  }

  /**
   * The slot where the probe for {@code key} starts in a table of {@code capacity} slots, a power
   * of two: the top {@code log2(capacity)} bits of the key's Fibonacci hash.
   */
  static int homeSlot(long key, int capacity) {
    return (int) ((key * FIBONACCI) >>> (64 - Integer.numberOfTrailingZeros(capacity)));
  }

  /** The number of slots in the table: for the tests. */
  int capacity() {
    return keys.length;
  }

  private static void requireValidKey(long key) {
    if (key < 0) {
      throw new IllegalArgumentException("key must not be negative, but was " + key);
    }
  }

  private void grow() {
    long[] oldKeys = keys;
    V[] oldValues = values;
    allocate(oldKeys.length << 1);
    int mask = keys.length - 1;
    for (int old = 0; old < oldKeys.length; old++) {
      if (oldKeys[old] != FREE) {
        int slot = slotOf(oldKeys[old]);
        while (keys[slot] != FREE) {
          slot = (slot + 1) & mask;
        }
        keys[slot] = oldKeys[old];
        values[slot] = oldValues[old];
      }
    }
  }

  /** The most keys a table of {@code capacity} slots holds before it grows. */
  private static int maxSize(int capacity) {
    return capacity <= SPARSE_CAPACITY ? capacity >>> 3 : capacity >>> 1;
  }

  @SuppressWarnings("unchecked")
  private void allocate(int capacity) {
    keys = new long[capacity];
    Arrays.fill(keys, FREE);
    values = (V[]) new Object[capacity];
  }
}
