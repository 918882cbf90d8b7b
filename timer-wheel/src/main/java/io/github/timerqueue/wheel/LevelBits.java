package io.github.timerqueue.wheel;

import io.github.timerqueue.TimerConfig;

/**
 * The sizes of a timing wheel's levels, {@code Timing_wheel}'s {@code Level_bits}, read from the option
 * {@value #OPTION}: level {@code i} has 2<sup>bits[i]</sup> slots, and each of its slots covers
 * 2<sup>shift(i)</sup> consecutive keys, where {@code shift(i)} is the sum of the bits of the
 * levels below it. Immutable.
 */
final class LevelBits {
  /** The option key. */
  static final String OPTION = "levelBits";
  /** {@code Timing_wheel}'s default on 64-bit machines: 62 bits, so about 2^62 intervals fit in the levels. */
  static final String DEFAULT = "11,10,10,10,10,10,1";
  /** {@code Timing_wheel}'s {@code max_num_bits}: keeps every level's span below 2^63, so it fits a long. */
  static final int MAX_NUM_BITS = 62;
  /**
   * The most bits one level may have. Not a limit of {@code Timing_wheel}, which allocates whatever it is
   * asked for; a level of 2^20 slots already takes tens of megabytes, and 2^31 slots would not fit
   * a Java array at all.
   */
  static final int MAX_BITS_PER_LEVEL = 20;

  private final int[] bits;
  private final int[] shifts;

  private LevelBits(int[] bits) {
    this.bits = bits;
    this.shifts = new int[bits.length];
    for (int level = 1; level < bits.length; level++) {
      shifts[level] = shifts[level - 1] + bits[level - 1];
    }
  }

  /**
   * Reads the option from a configuration, or the {@linkplain #DEFAULT default} if it is not set.
   *
   * @throws IllegalArgumentException if the value is not a valid list of level bits
   */
  static LevelBits of(TimerConfig config) {
    return parse(config.option(OPTION).orElse(DEFAULT));
  }

  /**
   * Parses a comma-separated list of level sizes in bits, such as {@code "11,10,10"}, validated as
   * {@code Timing_wheel}'s {@code Level_bits.create_exn} does (not empty, every size at least 1, the sum at
   * most {@value #MAX_NUM_BITS}) and with every size at most {@value #MAX_BITS_PER_LEVEL}.
   *
   * @throws IllegalArgumentException naming the option, the value and what is allowed
   */
  static LevelBits parse(String value) {
    String[] parts = value.split(",", -1);
    int[] bits = new int[parts.length];
    int sum = 0;
    for (int level = 0; level < parts.length; level++) {
      String part = parts[level].trim();
      int levelBits;
      try {
        levelBits = Integer.parseInt(part);
      } catch (NumberFormatException notANumber) {
        throw invalid(value, "'" + part + "' is not a whole number");
      }
      if (levelBits < 1 || levelBits > MAX_BITS_PER_LEVEL) {
        throw invalid(value, "level " + level + " has " + levelBits + " bits");
      }
      sum += levelBits;
      bits[level] = levelBits;
    }
    if (sum > MAX_NUM_BITS) {
      throw invalid(value, "the levels have " + sum + " bits in all");
    }
    return new LevelBits(bits);
  }

  private static IllegalArgumentException invalid(String value, String problem) {
    return new IllegalArgumentException("option " + OPTION + " = '" + value + "' is invalid: "
        + problem + "; allowed: a non-empty comma-separated list of level sizes in bits, each from"
        + " 1 to " + MAX_BITS_PER_LEVEL + ", adding up to at most " + MAX_NUM_BITS
        + " (default " + DEFAULT + ")");
  }

  /** The number of levels. */
  int levels() {
    return bits.length;
  }

  /** The bits of a level: it has 2^bits slots. */
  int bits(int level) {
    return bits[level];
  }

  /** The sum of the bits of the levels below a level: each of its slots covers 2^shift keys. */
  int shift(int level) {
    return shifts[level];
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    for (int level = 0; level < bits.length; level++) {
      text.append(level == 0 ? "" : ",").append(bits[level]);
    }
    return text.toString();
  }
}
