package io.github.timerqueue.wheel;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.spi.TimerQueueChecks;
import java.util.Arrays;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The {@code wheel} strategy: the leveled timing wheel of Jane Street's {@code Timing_wheel}, a
 * priority queue of timers keyed by interval number that sorts its keys lazily, by radix, as the
 * clock moves.
 *
 * <h2>Design</h2>
 * Time from the start time onwards is cut into half-open intervals of the {@linkplain
 * TimerConfig#resolution() resolution} {@code r}, numbered 0, 1, 2, ... ({@link #intervalNum}). A
 * timer's key is the number of the interval that holds the instant just before its deadline, so
 * that it fires in the first advance that enters the next interval: never before its deadline, and
 * at the latest when the clock reaches the deadline rounded up to a multiple of {@code r}. The
 * queue's <em>minimum allowed key</em> is the interval number of the clock; advancing the clock is
 * the seed's {@code increase_min_allowed_key}, which removes (fires) every timer whose key is below
 * the new minimum.
 *
 * <p>Keys live in an array of levels of decreasing precision, configured with the option {@value
 * #LEVEL_BITS_OPTION} (default {@value #DEFAULT_LEVEL_BITS}): level {@code i} has 2<sup>b<sub>i
 * </sub></sup> slots, and each of its slots covers 2<sup>b<sub>0</sub>+...+b<sub>i-1</sub></sup>
 * consecutive keys. Level 0 starts at the minimum allowed key and each higher level starts at the
 * first of its slots that follows the one holding the start of the level below, so together the
 * levels hold at least the next 2<sup>b<sub>0</sub>+...+b<sub>n-1</sub></sup> keys (the seed's
 * {@code max_allowed_key}). A timer goes to the lowest level that holds its key, at the tail of its
 * slot's list. When the minimum allowed key rises, each level whose start moved takes the slots it
 * passed and moves their timers down to the lowest level that now holds them, or fires them; a
 * timer thus descends level by level until it fires from level 0.
 *
 * <p>Keys beyond the top level's reach are accepted, as the contract requires: they wait in an
 * overflow list, which is re-examined only when the top level's range moves past the smallest key
 * in it (a lower bound of it is kept, made exact by each re-examination), so it costs nothing while
 * the top level stands still. With the default 62 bits the levels always reach at least 2^62
 * intervals ahead, so only deadlines about that far away or further ever wait there.
 *
 * <p>{@link #scheduleWithin scheduleWithin} adds one thing the seed does not have: <em>coarse
 * slots</em>, a second list per slot of each level {@code i >= 1}. Slot {@code B} of level {@code
 * i}, which covers keys from {@code B * 2^s(i)} (with {@code s(i) = b_0 + ... + b_(i-1)}), is
 * passed in the advance that enters interval {@code B * 2^s(i) - (2^s(1) + ... + 2^s(i-1))}; a
 * timer in its coarse list has the key of the interval before, and is handed out right there,
 * without ever moving down a level.
 *
 * <h2>Worked example</h2>
 * With {@code levelBits "3,1"}, resolution 1 and start 0, level 0 has 8 slots for keys 0 to 7 and
 * level 1 has 2 slots of 8 keys each, for keys 8 to 23: the maximum allowed key is 23. A timer for
 * deadline 20 has key 19 and goes to level 1; a timer for deadline 30 has key 29 and waits in the
 * overflow list. Advancing to 8 moves level 1 on to keys 16 to 31, which passes the overflow's
 * smallest key, so key 29 moves into level 1. Advancing to 16 makes level 0 cover keys 16 to 23:
 * level 1 passes the slot of keys 16 to 23 and moves key 19 down into level 0. Advancing to 20
 * fires it.
 *
 * <h2>Costs</h2>
 * <ul>
 *   <li>{@code schedule}, {@code cancel}, {@code reschedule}: {@code O(1)} (finding the level
 *       compares the key with at most one bound per level); no allocation beyond the handle.
 *   <li>{@code advance}: {@code O(1)} per fired timer plus the cost of moving the clock. A level
 *       whose range did not move is not touched, and neither is any level above it; a level with no
 *       timers is stepped over without looking at its slots; in a level that has timers, an
 *       occupancy bitmap (one bit per slot) leads to the occupied slots among those passed without
 *       visiting the empty ones, and a move of any length passes each slot of a level at most once.
 *       So advancing by one interval with many timers pending far away costs {@code O(1)}, and
 *       advancing very far costs at most one rotation of each non-empty level, never time in
 *       proportion to the distance. Each timer moves down at most once per level over its life.
 *   <li>{@code nextExpiryDelay}: exact to the interval. {@code O(1)} while the cached minimum timer
 *       (the seed's {@code min_elt}) is valid; it becomes invalid only when that timer is removed
 *       or fires. Finding the next one looks at the lowest level with timers: a bitmap search for
 *       its first occupied slot, then a scan of that slot's list for its smallest key (one timer
 *       at level 0, where a slot holds a single key), plus one bitmap search per level for coarse
 *       slots; the overflow list is scanned only when the levels are empty.
 *   <li>The overflow list: a re-examination scans it whole, once each time the top level's range
 *       reaches the smallest key in it.
 *   <li>{@code size} {@code O(1)}; {@code clear}, {@code drain}, {@code forEach} {@code O(n)} plus
 *       one pass over the bitmaps.
 *   <li>Memory: per level, two arrays of 2<sup>b<sub>i</sub></sup> list heads (by key and coarse)
 *       and their bitmaps; with the default bits, about 14,500 heads. Per timer, one handle.
 * </ul>
 *
 * <h2>Order</h2>
 * Timers with the same deadline, armed while that deadline was still ahead, fire in the order they
 * were armed (a {@code reschedule} counts as arming): the pending timers stored under one key are
 * all in a single list, in arming order, wherever they are. Advancing one interval at a time fires timers in
 * interval order, since each such advance fires exactly the timers of one key. An advance that
 * passes many intervals at once hands out timers grouped by the slot they were found in, not
 * necessarily in interval order. A timer armed with a deadline at or before {@link #now()} is due
 * at once, as the contract requires, and is handed out by the next advance ahead of the timers that
 * advance makes due; with a resolution above 1 it can therefore overtake a timer with the same
 * deadline that was armed earlier and is still waiting for its interval to end. Timers placed in
 * coarse slots by {@link #scheduleWithin scheduleWithin} fire after the timers stored by key in
 * their interval; among themselves, those with the same deadline fire in arming order.
 *
 * <h2>Where this differs from the seed</h2>
 * <ul>
 *   <li><b>Never early, to the unit.</b> The seed fires an alarm at time {@code at} once the clock
 *       passes the interval holding {@code at}; a deadline on an interval boundary would then fire
 *       one interval late for this contract. Keying by the instant before the deadline ({@code at
 *       = deadline - 1}, which for whole-number times is the seed's {@code at < now}) makes it fire
 *       exactly on the boundary.
 *   <li><b>Every deadline is accepted.</b> The seed raises for a time before {@code now} or at or
 *       after {@code alarm_upper_bound}. Here a deadline at or before now is due at the next
 *       advance, even one with the same now, and keys beyond the levels wait in the overflow list.
 *   <li><b>First in, first out.</b> The seed's levels overlap: the top of a level's range can lie
 *       in the first slot of the level above, so as the clock moves, a key can come within reach
 *       of a lower level while earlier timers with the same key still wait in the level above, and
 *       a later timer then fires first (with {@code levelBits "2,2,2"}: a timer for key 20 armed
 *       at 0 goes to level 2, one armed at 4 goes to level 1, and at 12 the first is appended
 *       behind the second). Here a level holds only the keys below the start of the next level,
 *       so the levels partition the keys and each key has one place at a time.
 *   <li><b>Advancing far is cheap.</b> The seed's {@code increase_min_allowed_key} takes time
 *       proportional to the increase; the occupancy bitmaps and the one-rotation bound above make
 *       it proportional to the occupied slots passed.
 *   <li><b>The minimum is found without a linear search.</b> The seed's {@code min_elt} scans the
 *       levels' slots; here the bitmaps find the first occupied slot.
 * </ul>
 *
 * <h2>Use</h2>
 * Create one with {@link #create(TimerConfig)}, or cast a queue made by {@code
 * TimerQueues.create("wheel", config)} to {@code TimingWheel<T>} to reach the seed's vocabulary:
 * {@link #intervalNum}, {@link #intervalStart}, {@link #nextAlarmFiresAt}, {@link
 * #advanceStopAtNextAlarm}, {@link #maxAllowedAlarmTime} and {@link #levelDurations}.
 *
 * <pre>{@code
 * TimingWheel<Runnable> wheel = TimingWheel.create(TimerConfig.builder()
 *     .startTime(System.nanoTime())
 *     .resolution(1_000_000)                 // 1 ms intervals, times in nanoseconds
 *     .option("levelBits", "8,8,8,8,8")       // 40 bits: 2^40 ms, about 35 years
 *     .build());
 * wheel.schedule(wheel.now() + 5_000_000_000L, task);
 * wheel.advance(System.nanoTime(), timer -> timer.payload().run());
 * }</pre>
 *
 * <p>Not thread-safe, like every {@link TimerQueue}.
 *
 * @param <T> the type of the payloads carried by the timers
 */
public final class TimingWheel<T> implements TimerQueue<T> {

  /** The option that sets the level sizes in bits: {@value}. */
  public static final String LEVEL_BITS_OPTION = LevelBits.OPTION;
  /** The default level sizes, the seed's 64-bit default of 62 bits: {@value}. */
  public static final String DEFAULT_LEVEL_BITS = LevelBits.DEFAULT;
  /** The most bits the levels may have in all, the seed's {@code max_num_bits}: {@value}. */
  public static final int MAX_NUM_BITS = LevelBits.MAX_NUM_BITS;

  /** {@link WheelTimer#position} of a timer that is not pending. */
  static final int NOT_PENDING = -1;
  /** The list of due timers, which the next advance (or the running one) hands out in order. */
  static final int DUE = 0;
  /** The list of timers made due by a handler of the running advance: for the next advance. */
  static final int NEXT_DUE = 1;
  /** The list of timers whose keys lie beyond the top level. */
  static final int OVERFLOW = 2;
  /** The first slot position: slots start on a word of the bitmaps, which the lists above skip. */
  static final int FIRST_SLOT = 64;
  /** {@link WheelTimer#group} of a timer in a list that is not a slot. */
  static final int NO_GROUP = -1;
  /**
   * The largest unsigned key. As the start of a level, it means that the level lies beyond the end
   * of the key space (the clock is within one of its slots of 2^64), so no key is left for it.
   */
  static final long END = -1L;

  private final long startTime;
  private final long resolution;
  /** log2 of the resolution if it is a power of two, else -1: division then is a shift. */
  private final int resolutionShift;
  /** The largest interval number whose end the clock can reach, {@code (2^64 - 1) / resolution}. */
  private final long lastInterval;
  final LevelBits levelBits;
  final int levels;
  /** Per level: each slot covers 2^shift keys. */
  final int[] shift;
  /** Per level: slot count minus one. */
  final int[] slotMask;
  /** Per level: the number of keys its slots cover in all, minus one. */
  private final long[] spanMinusOne;
  /**
   * Per level {@code i >= 1}: {@code 2^shift(1) + ... + 2^shift(i-1)}. Slot {@code B} of level
   * {@code i}, covering keys from {@code B * 2^shift(i)}, is passed when the minimum allowed key
   * reaches {@code B * 2^shift(i) - passOffset[i]}, which is how {@code scheduleWithin} knows when
   * a coarse slot fires.
   */
  final long[] passOffset;
  /** Per level: the position of slot 0 of its lists of timers stored by key. */
  final int[] naturalBase;
  /** Per level: the position of slot 0 of its coarse lists, of timers from scheduleWithin. */
  final int[] coarseBase;

  /** The first timer of each list, by position; lists are circular: the head's previous is last. */
  final WheelTimer<T>[] heads;
  /** One bit per slot position, set if and only if that slot's list is not empty. */
  final long[] occupied;
  /** Timers per level: stored by key at {@code [level]}, coarse at {@code [levels + level]}. */
  final int[] counts;
  /** Per level: the smallest key it can hold (a multiple of 2^shift), or {@link #END}. */
  final long[] minKey;
  /** Per level: the largest key it can hold, saturated at {@link #END}. */
  final long[] maxKey;

  private long now;
  /** Unsigned distance of the clock from the start time. */
  private long elapsed;
  /** The interval number of the clock: every key in the levels and overflow list is at least it. */
  long minAllowedKey;
  private int size;
  /** At most the smallest key in the overflow list; {@link #END} when it is empty. */
  long overflowKeyLowerBound = END;
  /** The timer with the smallest key in the levels and overflow list, if {@link #minimumKnown}. */
  WheelTimer<T> minimum;
  boolean minimumKnown = true;
  private boolean advancing;

  /** Slots taken by advances, counted so that tests can check the cost bounds. */
  long slotVisits;
  /** Re-examinations of the overflow list, counted for tests. */
  long overflowScans;

  @SuppressWarnings("unchecked")
  private TimingWheel(TimerConfig config, LevelBits levelBits) {
    this.startTime = config.startTime();
    this.now = config.startTime();
    this.resolution = config.resolution();
    this.resolutionShift = Long.bitCount(resolution) == 1
        ? Long.numberOfTrailingZeros(resolution) : -1;
    this.lastInterval = Long.divideUnsigned(END, resolution);
    this.levelBits = levelBits;
    this.levels = levelBits.levels();
    this.shift = new int[levels];
    this.slotMask = new int[levels];
    this.spanMinusOne = new long[levels];
    this.passOffset = new long[levels];
    this.naturalBase = new int[levels];
    this.coarseBase = new int[levels];
    this.counts = new int[2 * levels];
    this.minKey = new long[levels];
    this.maxKey = new long[levels];
    int position = FIRST_SLOT;
    for (int level = 0; level < levels; level++) {
      int bits = levelBits.bits(level);
      shift[level] = levelBits.shift(level);
      slotMask[level] = (1 << bits) - 1;
      spanMinusOne[level] = (1L << (shift[level] + bits)) - 1;
      passOffset[level] = level <= 1 ? 0 : passOffset[level - 1] + (1L << shift[level - 1]);
      int words = Math.max(1, (1 << bits) >>> 6);
      naturalBase[level] = position;
      position += words << 6;
      coarseBase[level] = position;
      position += words << 6;
      minKey[level] = level == 0 ? 0 : nextLevelMin(minKey[level - 1], level);
      maxKey[level] = levelMax(minKey[level], level);
    }
    this.heads = (WheelTimer<T>[]) new WheelTimer<?>[position];
    this.occupied = new long[position >>> 6];
  }

  /**
   * Creates an empty timing wheel. This is what {@code TimerQueues.create("wheel", config)} does,
   * with the result typed as this class.
   *
   * @param config the start time, the resolution (the seed's {@code alarm_precision}) and
   *     optionally {@value #LEVEL_BITS_OPTION}
   * @param <T> the payload type
   * @return a new, empty wheel whose clock starts at {@code config.startTime()}
   * @throws IllegalArgumentException if the configuration has an option other than {@value
   *     #LEVEL_BITS_OPTION}, or an invalid value for it; the message names the option, the value
   *     and what is allowed
   * @throws NullPointerException if {@code config} is {@code null}
   */
  public static <T> TimingWheel<T> create(TimerConfig config) {
    Objects.requireNonNull(config, "config");
    for (String key : config.options().keySet()) {
      if (!key.equals(LEVEL_BITS_OPTION)) {
        throw new IllegalArgumentException("strategy '" + TimingWheelProvider.NAME
            + "' does not accept option '" + key + "'; it accepts: [" + LEVEL_BITS_OPTION + "]");
      }
    }
    return new TimingWheel<>(config, LevelBits.of(config));
  }

  /**
   * Returns how much time each level of a configuration covers, lowest level first: level {@code
   * i} covers {@code resolution * 2^(b_0 + ... + b_i)}, saturated at {@link Long#MAX_VALUE}. This
   * is the seed's {@code durations}. With the default level bits and a resolution of one
   * millisecond, for example, level 0 covers about 2 seconds, level 1 about 35 minutes and level 2
   * about 25 days.
   *
   * @param config a configuration; only its resolution and {@value #LEVEL_BITS_OPTION} are read
   * @return a new array with one duration per level, in the configuration's time units
   * @throws IllegalArgumentException if {@value #LEVEL_BITS_OPTION} is invalid
   * @throws NullPointerException if {@code config} is {@code null}
   */
  public static long[] levelDurations(TimerConfig config) {
    LevelBits levelBits = LevelBits.of(Objects.requireNonNull(config, "config"));
    long[] durations = new long[levelBits.levels()];
    for (int level = 0; level < durations.length; level++) {
      int bits = levelBits.shift(level) + levelBits.bits(level);
      long resolution = config.resolution();
      durations[level] =
          resolution > (Long.MAX_VALUE >>> bits) ? Long.MAX_VALUE : resolution << bits;
    }
    return durations;
  }

  // ---------------------------------------------------------------- TimerQueue

  @Override
  public String strategy() {
    return TimingWheelProvider.NAME;
  }

  @Override
  public long now() {
    return now;
  }

  /**
   * {@inheritDoc}
   *
   * <p>{@code O(1)}: the timer goes to the tail of the slot of the lowest level that holds its key,
   * to the overflow list if no level does, or to the list of due timers if its deadline is not
   * after {@link #now()}.
   */
  @Override
  public TimerHandle<T> schedule(long deadline, T payload) {
    WheelTimer<T> timer = new WheelTimer<>(this, Objects.requireNonNull(payload, "payload"));
    arm(timer, deadline);
    return timer;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The wheel looks for the coarsest slot whose firing lies within the range. A slot of level
   * {@code i >= 1} is passed, and hands out the timers of its coarse list, in the advance that
   * enters one particular interval (see the class documentation); the timer is put in that coarse
   * list, under the key of the interval before, if handing it out there is neither before {@code
   * earliest} nor later than {@code latest} rounded up to the resolution, and the slot lies within
   * the level's current range. It then never cascades: it stays in that slot until it fires. The
   * highest level with such a slot wins, and in it the earliest slot. The chosen deadline is the
   * start of the interval in which the slot is passed, or {@code latest} if that comes first.
   * Otherwise, when no level has such a slot or {@code earliest} is not after {@link #now()}, the
   * timer is scheduled at {@code earliest}, which puts it as low in the levels as the range
   * allows, so it moves down as few levels as possible. {@code O(1)}: one computation per
   * level.
   */
  @Override
  public TimerHandle<T> scheduleWithin(long earliest, long latest, T payload) {
    Objects.requireNonNull(payload, "payload");
    TimerQueueChecks.checkRange(earliest, latest);
    WheelTimer<T> timer = new WheelTimer<>(this, payload);
    long toEarliest = earliest - now;
    long toLatest = latest - now;
    // A latest more than Long.MAX_VALUE ahead wraps into the past; earliest alone is then safe.
    if (toEarliest <= 0 || toLatest < toEarliest
        || !armInCoarseSlot(timer, toEarliest, toLatest, latest)) {
      arm(timer, earliest);
    }
    return timer;
  }

  /** {@inheritDoc} {@code O(1)}. */
  @Override
  public boolean cancel(TimerHandle<T> timer) {
    WheelTimer<T> owned = own(timer);
    if (owned.position == NOT_PENDING) {
      return false;
    }
    remove(owned);
    return true;
  }

  /** {@inheritDoc} {@code O(1)}: the timer is unlinked and armed again, at its new list's tail. */
  @Override
  public boolean reschedule(TimerHandle<T> timer, long deadline) {
    WheelTimer<T> owned = own(timer);
    boolean wasPending = owned.position != NOT_PENDING;
    if (wasPending) {
      remove(owned);
    }
    arm(owned, deadline);
    return wasPending;
  }

  @Override
  public int advance(long now, Consumer<? super TimerHandle<T>> onExpired) {
    return advance(now, onExpired, Integer.MAX_VALUE);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Moving the clock into a later interval is the seed's {@code increase_min_allowed_key}: the
   * timers of the passed keys join the due list, and the due list is handed out in order.
   */
  @Override
  public int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit) {
    Objects.requireNonNull(onExpired, "onExpired");
    TimerQueueChecks.checkLimit(limit);
    if (advancing) {
      throw new IllegalStateException("advance must not be called from a timer handler");
    }
    long step = now - this.now;
    if (step > 0) {
      this.now = now;
      elapsed += step;
      long key = intervalOf(elapsed);
      if (Long.compareUnsigned(key, minAllowedKey) > 0) {
        increaseMinAllowedKey(key);
      }
    }
    return handOutDue(onExpired, limit);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Exact to the interval: the distance to the end of the interval holding the instant before
   * the earliest deadline, which is when the next advance would fire it. See the class
   * documentation for its cost.
   */
  @Override
  public long nextExpiryDelay() {
    if (heads[DUE] != null || heads[NEXT_DUE] != null) {
      return 0;
    }
    if (size == 0) {
      return Long.MAX_VALUE;
    }
    long delay = firesAt(minimumTimer().key) - elapsed;
    if (Long.compareUnsigned(delay, Long.MAX_VALUE - 1) > 0) {
      return Long.MAX_VALUE - 1;
    }
    return Math.max(1, delay);
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public void clear() {
    for (int word = 0; word < occupied.length; word++) {
      for (long bits = occupied[word]; bits != 0; bits &= bits - 1) {
        forgetList((word << 6) + Long.numberOfTrailingZeros(bits));
      }
      occupied[word] = 0;
    }
    forgetList(DUE);
    forgetList(NEXT_DUE);
    forgetList(OVERFLOW);
    Arrays.fill(counts, 0);
    size = 0;
    overflowKeyLowerBound = END;
    minimum = null;
    minimumKnown = true;
  }

  @Override
  public int drain(Consumer<? super TimerHandle<T>> sink) {
    Objects.requireNonNull(sink, "sink");
    if (advancing) {
      throw new IllegalStateException("drain must not be called from a timer handler");
    }
    int drained = 0;
    int word = 0;
    for (int remaining = size; remaining > 0; remaining--) {
      WheelTimer<T> timer = heads[DUE] != null ? heads[DUE] : heads[OVERFLOW];
      if (timer == null) {
        while (word < occupied.length && occupied[word] == 0) {
          word++;
        }
        if (word == occupied.length) {
          break;
        }
        timer = heads[(word << 6) + Long.numberOfTrailingZeros(occupied[word])];
      }
      remove(timer);
      drained++;
      sink.accept(timer);
    }
    return drained;
  }

  @Override
  public void forEach(Consumer<? super TimerHandle<T>> action) {
    Objects.requireNonNull(action, "action");
    visitList(DUE, action);
    visitList(NEXT_DUE, action);
    visitList(OVERFLOW, action);
    for (int word = 0; word < occupied.length; word++) {
      for (long bits = occupied[word]; bits != 0; bits &= bits - 1) {
        visitList((word << 6) + Long.numberOfTrailingZeros(bits), action);
      }
    }
  }

  @Override
  public String toString() {
    return "TimingWheel{now=" + now + ", size=" + size + ", levelBits=" + levelBits
        + ", resolution=" + resolution + "}";
  }

  // ---------------------------------------------------------------- the seed's vocabulary

  /**
   * Returns the number of the interval that holds a time: 0 for the interval that starts at the
   * start time, then one more per resolution, counted as unsigned distances from the start time.
   * This is the seed's {@code interval_num}.
   *
   * @param time a time no earlier than the start time and less than 2^64 units after it; times are
   *     placed relative to {@link #now()} by signed difference, as everywhere in the contract
   * @return the interval number, an unsigned value
   * @throws IllegalArgumentException if {@code time} lies before the start time, or 2^64 units or
   *     more after it
   */
  public long intervalNum(long time) {
    return intervalOf(elapsedAt(time));
  }

  /**
   * Returns the interval number of {@link #now()}, the seed's {@code now_interval_num}: the
   * wheel's minimum allowed key. A timer fires in the first advance whose interval number is
   * greater than its key.
   *
   * @return the interval number of the clock, an unsigned value
   */
  public long nowIntervalNum() {
    return minAllowedKey;
  }

  /**
   * Returns the time at which an interval starts, {@code startTime + intervalNum * resolution}:
   * the seed's {@code interval_num_start}.
   *
   * @param intervalNum an interval number, an unsigned value
   * @return the start of that interval, in the wrapping arithmetic of the clock
   * @throws IllegalArgumentException if the interval starts 2^64 units or more after the start
   *     time
   */
  public long intervalNumStart(long intervalNum) {
    if (Long.compareUnsigned(intervalNum, lastInterval) > 0) {
      throw new IllegalArgumentException("interval " + Long.toUnsignedString(intervalNum)
          + " starts 2^64 or more units after the start time " + startTime);
    }
    return startTime + intervalNum * resolution;
  }

  /**
   * Returns the start of the interval that holds a time, the seed's {@code interval_start}.
   *
   * @param time a time, as for {@link #intervalNum}
   * @return the greatest time at or before {@code time} that is a whole number of resolutions
   *     after the start time
   * @throws IllegalArgumentException as {@link #intervalNum} does
   */
  public long intervalStart(long time) {
    return intervalNumStart(intervalNum(time));
  }

  /**
   * Returns the earliest time to which the clock can be advanced so that a timer fires, the seed's
   * {@code next_alarm_fires_at}: {@link #now()} if a timer is due, else the end of the interval of
   * the instant before the earliest deadline. For the earliest deadline {@code d}, the result
   * {@code next} satisfies {@code next - resolution < d <= next} (the seed, which fires an alarm at
   * {@code at} only once the clock passes it, has {@code next - precision <= at < next}). Never
   * more than {@link Long#MAX_VALUE} after {@code now()}: a timer within a resolution of that
   * limit reports the limit, the farthest one advance can reach. Costs what {@link
   * #nextExpiryDelay()} costs, plus the {@code OptionalLong}: an event loop that wants no
   * allocation uses {@code nextExpiryDelay()}.
   *
   * @return when the next timer fires, or empty if no timer is pending
   */
  public OptionalLong nextAlarmFiresAt() {
    if (size == 0) {
      return OptionalLong.empty();
    }
    if (heads[DUE] != null || heads[NEXT_DUE] != null) {
      return OptionalLong.of(now);
    }
    long distance = firesAt(minimumTimer().key) - elapsed;
    return OptionalLong.of(
        now + (Long.compareUnsigned(distance, Long.MAX_VALUE) > 0 ? Long.MAX_VALUE : distance));
  }

  /**
   * Advances the clock to {@code to} or to {@link #nextAlarmFiresAt()}, whichever comes first, and
   * fires what is due there: the seed's {@code advance_clock_stop_at_next_alarm}. Stepping an
   * event loop with it never jumps past a timer, so every timer fires exactly when the clock
   * reaches the end of its interval.
   *
   * @param to the farthest time to move to; if it is not after {@link #now()}, this is {@code
   *     advance(to, onExpired)}
   * @param onExpired receives each fired timer
   * @return how many timers fired
   * @throws IllegalStateException if called from a handler of this queue
   * @throws NullPointerException if {@code onExpired} is {@code null}
   */
  public int advanceStopAtNextAlarm(long to, Consumer<? super TimerHandle<T>> onExpired) {
    Objects.requireNonNull(onExpired, "onExpired");
    if (advancing) {
      throw new IllegalStateException("advance must not be called from a timer handler");
    }
    long distance = to - now;
    long delay = nextExpiryDelay();
    return advance(distance > 0 && delay < distance ? now + delay : to, onExpired);
  }

  /**
   * Returns the latest deadline that the levels hold right now: a timer armed now with a later
   * deadline waits in the overflow list until the levels reach it. This is the seed's {@code
   * max_allowed_alarm_time}, moved to deadlines; like it, it grows as the clock moves. If the
   * levels reach beyond everything a deadline can express, returns {@code now() +
   * Long.MAX_VALUE}.
   *
   * @return the latest deadline stored in the levels
   */
  public long maxAllowedAlarmTime() {
    long topMax = maxKey[levels - 1];
    long reach = topMax == END ? END : firesAt(topMax);
    long distance = reach - elapsed;
    return now + (Long.compareUnsigned(distance, Long.MAX_VALUE) > 0 ? Long.MAX_VALUE : distance);
  }

  // ---------------------------------------------------------------- arming and removing

  private WheelTimer<T> own(TimerHandle<T> timer) {
    Objects.requireNonNull(timer, "timer");
    if (timer instanceof WheelTimer && ((WheelTimer<?>) timer).wheel == this) {
      @SuppressWarnings("unchecked")
      WheelTimer<T> owned = (WheelTimer<T>) timer;
      return owned;
    }
    throw new IllegalArgumentException("timer " + timer + " was not created by this queue");
  }

  private void arm(WheelTimer<T> timer, long deadline) {
    timer.deadline = deadline;
    long distance = deadline - now;
    size++;
    if (distance <= 0) {
      link(timer, advancing ? NEXT_DUE : DUE, NO_GROUP);
      return;
    }
    timer.key = keyOf(saturatedAdd(elapsed, distance));
    insert(timer);
    noteArmed(timer);
  }

  /**
   * Puts a timer, under the key of a moment within {@code [now + toEarliest, now + toLatest]}, in
   * the coarse list of the highest-level slot that is passed in that moment's advance; returns
   * false, changing nothing, if no level has one.
   */
  private boolean armInCoarseSlot(
      WheelTimer<T> timer, long toEarliest, long toLatest, long latest) {
    long lowestKey = keyOf(saturatedAdd(elapsed, toEarliest));
    long highestKey = keyOf(saturatedAdd(elapsed, toLatest));
    for (int level = levels - 1; level >= 1; level--) {
      long passKey = firstPassAtOrAfter(level, lowestKey + 1);
      if (passKey == 0 || Long.compareUnsigned(passKey - 1, highestKey) > 0) {
        continue;
      }
      long block = (passKey + passOffset[level]) >>> shift[level];
      timer.key = passKey - 1;
      timer.deadline =
          passKey - 1 == highestKey ? latest : now + (passKey * resolution - elapsed);
      size++;
      link(timer, coarseBase[level] + ((int) block & slotMask[level]), levels + level);
      noteArmed(timer);
      return true;
    }
    return false;
  }

  /**
   * Returns the smallest key {@code k >= atLeast} at which the minimum allowed key passes a slot of
   * a level that lies within the level's current range, or 0 if there is none.
   */
  private long firstPassAtOrAfter(int level, long atLeast) {
    long target = atLeast + passOffset[level];
    if (minKey[level] == END || Long.compareUnsigned(target, atLeast) < 0) {
      return 0;
    }
    int s = shift[level];
    long block = (target >>> s) + ((target & ((1L << s) - 1)) == 0 ? 0 : 1);
    if (Long.compareUnsigned(block, END >>> s) > 0) {
      return 0;
    }
    long blockStart = block << s;
    if (Long.compareUnsigned(blockStart, maxKey[level]) > 0) {
      return 0;
    }
    return blockStart - passOffset[level];
  }

  /** Keeps the cached minimum right after a timer is linked into the levels or overflow list. */
  private void noteArmed(WheelTimer<T> timer) {
    if (minimumKnown && (minimum == null || Long.compareUnsigned(timer.key, minimum.key) < 0)) {
      minimum = timer;
    }
  }

  /** Unlinks a pending timer, which is then not pending. */
  private void remove(WheelTimer<T> timer) {
    if (timer == minimum) {
      minimum = null;
      minimumKnown = false;
    }
    unlink(timer);
    size--;
  }

  /**
   * Links a timer whose key is at least the minimum allowed key into the slot of the lowest level
   * whose part of the keys holds it (below the next level's start), or into the overflow list.
   */
  private void insert(WheelTimer<T> timer) {
    long key = timer.key;
    int top = levels - 1;
    for (int level = 0; level < top; level++) {
      if (Long.compareUnsigned(key, minKey[level + 1]) < 0) {
        link(timer, naturalBase[level] + slotOf(key, level), level);
        return;
      }
    }
    if (Long.compareUnsigned(key, maxKey[top]) <= 0) {
      link(timer, naturalBase[top] + slotOf(key, top), top);
      return;
    }
    link(timer, OVERFLOW, NO_GROUP);
    if (Long.compareUnsigned(key, overflowKeyLowerBound) < 0) {
      overflowKeyLowerBound = key;
    }
  }

  // ---------------------------------------------------------------- advancing

  /**
   * The seed's {@code increase_min_allowed_key}: moves each level's range up, from the bottom,
   * stopping at the first level whose range does not move; each level that moved and has timers
   * gives up the slots it passed.
   */
  private void increaseMinAllowedKey(long newMinimum) {
    if (minimum != null && Long.compareUnsigned(minimum.key, newMinimum) < 0) {
      minimum = null;
      minimumKnown = false;
    }
    minAllowedKey = newMinimum;
    int top = levels - 1;
    long levelMin = newMinimum;
    for (int level = 0; ; level++) {
      long oldMin = minKey[level];
      if (levelMin == oldMin) {
        return;
      }
      minKey[level] = levelMin;
      maxKey[level] = levelMax(levelMin, level);
      if (counts[level] + counts[levels + level] > 0) {
        passSlots(level, oldMin, levelMin);
      }
      if (level == top) {
        break;
      }
      levelMin = nextLevelMin(levelMin, level + 1);
    }
    if (heads[OVERFLOW] != null
        && Long.compareUnsigned(overflowKeyLowerBound, maxKey[top]) <= 0) {
      reexamineOverflow();
    }
  }

  /** Takes the slots of a level that hold keys from {@code oldMin} up to {@code newMin}. */
  private void passSlots(int level, long oldMin, long newMin) {
    int slots = slotMask[level] + 1;
    long passed = newMin == END ? END : (newMin - oldMin) >>> shift[level];
    if (Long.compareUnsigned(passed, slots) >= 0) {
      takeSlots(level, 0, slots);
      return;
    }
    int first = slotOf(oldMin, level);
    int end = first + (int) passed;
    if (end <= slots) {
      takeSlots(level, first, end);
    } else {
      takeSlots(level, first, slots);
      takeSlots(level, 0, end - slots);
    }
  }

  /** Takes the occupied slots of a level in {@code [from, to)}, found through the bitmaps. */
  private void takeSlots(int level, int from, int to) {
    for (int slot = nextOccupiedSlot(level, from, to); slot >= 0;
        slot = nextOccupiedSlot(level, slot + 1, to)) {
      slotVisits++;
      takeList(naturalBase[level] + slot);
      takeList(coarseBase[level] + slot);
    }
  }

  /**
   * Empties a slot's list, in order: timers whose key is now below the minimum allowed key become
   * due, the others move to the lowest level that holds them.
   */
  private void takeList(int position) {
    WheelTimer<T> first = heads[position];
    if (first == null) {
      return;
    }
    heads[position] = null;
    occupied[position >>> 6] &= ~(1L << position);
    WheelTimer<T> timer = first;
    do {
      WheelTimer<T> next = timer.next;
      counts[timer.group]--;
      if (Long.compareUnsigned(timer.key, minAllowedKey) < 0) {
        link(timer, DUE, NO_GROUP);
      } else {
        insert(timer);
      }
      timer = next;
    } while (timer != first);
  }

  /**
   * Moves the overflow timers that the top level now reaches into the levels (or the due list),
   * keeping the others in order, and makes the overflow's key bound exact.
   */
  private void reexamineOverflow() {
    overflowScans++;
    long topMax = maxKey[levels - 1];
    WheelTimer<T> first = heads[OVERFLOW];
    heads[OVERFLOW] = null;
    long lowest = END;
    WheelTimer<T> timer = first;
    do {
      WheelTimer<T> next = timer.next;
      long key = timer.key;
      if (Long.compareUnsigned(key, topMax) > 0) {
        link(timer, OVERFLOW, NO_GROUP);
        lowest = Long.compareUnsigned(key, lowest) < 0 ? key : lowest;
      } else if (Long.compareUnsigned(key, minAllowedKey) < 0) {
        link(timer, DUE, NO_GROUP);
      } else {
        insert(timer);
      }
      timer = next;
    } while (timer != first);
    overflowKeyLowerBound = lowest;
  }

  /**
   * Hands out the due timers, oldest first, at most {@code limit}. Timers that handlers make due go
   * to {@link #NEXT_DUE}; afterwards, also after a handler threw, they join the due list behind the
   * ones not handed out.
   */
  private int handOutDue(Consumer<? super TimerHandle<T>> onExpired, int limit) {
    advancing = true;
    int fired = 0;
    try {
      WheelTimer<T> timer;
      while (fired < limit && (timer = heads[DUE]) != null) {
        remove(timer);
        fired++;
        onExpired.accept(timer);
      }
      return fired;
    } finally {
      advancing = false;
      WheelTimer<T> timer;
      while ((timer = heads[NEXT_DUE]) != null) {
        unlink(timer);
        link(timer, DUE, NO_GROUP);
      }
    }
  }

  // ---------------------------------------------------------------- the minimum

  /** The seed's {@code min_elt}: the timer with the smallest key outside the due lists, cached. */
  private WheelTimer<T> minimumTimer() {
    if (minimumKnown) {
      return minimum;
    }
    WheelTimer<T> best = null;
    for (int level = 0; level < levels; level++) {
      if (counts[level] > 0) {
        // The levels partition the keys in order, so the lowest non-empty one has the smallest.
        best = smallestInFirstSlot(level);
        break;
      }
    }
    for (int level = 1; level < levels; level++) {
      if (counts[levels + level] > 0) {
        // Coarse slots fire in slot order, and all timers of one coarse slot share its key.
        WheelTimer<T> candidate = heads[firstOccupiedPosition(coarseBase[level], level)];
        if (best == null || Long.compareUnsigned(candidate.key, best.key) < 0) {
          best = candidate;
        }
      }
    }
    if (best == null && heads[OVERFLOW] != null) {
      best = smallestInOverflow();
    }
    minimum = best;
    minimumKnown = true;
    return best;
  }

  /** The timer with the smallest key in the first occupied slot of a level's keyed lists. */
  private WheelTimer<T> smallestInFirstSlot(int level) {
    WheelTimer<T> first = heads[firstOccupiedPosition(naturalBase[level], level)];
    long blockStart = (first.key >>> shift[level]) << shift[level];
    long floor = Long.compareUnsigned(blockStart, minKey[level]) < 0 ? minKey[level] : blockStart;
    WheelTimer<T> best = first;
    for (WheelTimer<T> timer = first.next; timer != first && best.key != floor;
        timer = timer.next) {
      if (Long.compareUnsigned(timer.key, best.key) < 0) {
        best = timer;
      }
    }
    return best;
  }

  private WheelTimer<T> smallestInOverflow() {
    WheelTimer<T> first = heads[OVERFLOW];
    WheelTimer<T> best = first;
    for (WheelTimer<T> timer = first.next; timer != first; timer = timer.next) {
      if (Long.compareUnsigned(timer.key, best.key) < 0) {
        best = timer;
      }
    }
    overflowKeyLowerBound = best.key;
    return best;
  }

  /**
   * The position of the first occupied slot of one bitmap of a level (keyed or coarse), in the
   * order of the level's range: from the slot of its smallest key round to the slot before it.
   */
  private int firstOccupiedPosition(int base, int level) {
    int slots = slotMask[level] + 1;
    int start = slotOf(minKey[level], level);
    int slot = nextSetSlot(base, start, slots);
    if (slot < 0) {
      slot = nextSetSlot(base, 0, start);
    }
    return base + slot;
  }

  // ---------------------------------------------------------------- bitmaps

  /** The first slot in {@code [from, to)} of the bitmap at {@code base} whose bit is set, or -1. */
  private int nextSetSlot(int base, int from, int to) {
    if (from >= to) {
      return -1;
    }
    int words = base >>> 6;
    int word = from >>> 6;
    int lastWord = (to - 1) >>> 6;
    long bits = occupied[words + word] & (-1L << from);
    while (bits == 0) {
      if (++word > lastWord) {
        return -1;
      }
      bits = occupied[words + word];
    }
    int slot = (word << 6) + Long.numberOfTrailingZeros(bits);
    return slot < to ? slot : -1;
  }

  /** The first slot of a level in {@code [from, to)} with a keyed or coarse timer, or -1. */
  private int nextOccupiedSlot(int level, int from, int to) {
    if (from >= to) {
      return -1;
    }
    int naturalWords = naturalBase[level] >>> 6;
    int coarseWords = coarseBase[level] >>> 6;
    int word = from >>> 6;
    int lastWord = (to - 1) >>> 6;
    long bits = (occupied[naturalWords + word] | occupied[coarseWords + word]) & (-1L << from);
    while (bits == 0) {
      if (++word > lastWord) {
        return -1;
      }
      bits = occupied[naturalWords + word] | occupied[coarseWords + word];
    }
    int slot = (word << 6) + Long.numberOfTrailingZeros(bits);
    return slot < to ? slot : -1;
  }

  // ---------------------------------------------------------------- lists

  /** Appends a timer to the tail of a list. */
  private void link(WheelTimer<T> timer, int position, int group) {
    WheelTimer<T> head = heads[position];
    if (head == null) {
      timer.previous = timer;
      timer.next = timer;
      heads[position] = timer;
      if (position >= FIRST_SLOT) {
        occupied[position >>> 6] |= 1L << position;
      }
    } else {
      WheelTimer<T> tail = head.previous;
      tail.next = timer;
      timer.previous = tail;
      timer.next = head;
      head.previous = timer;
    }
    timer.position = position;
    timer.group = group;
    if (group != NO_GROUP) {
      counts[group]++;
    }
  }

  private void unlink(WheelTimer<T> timer) {
    int position = timer.position;
    WheelTimer<T> next = timer.next;
    if (next == timer) {
      heads[position] = null;
      if (position >= FIRST_SLOT) {
        occupied[position >>> 6] &= ~(1L << position);
      }
    } else {
      WheelTimer<T> previous = timer.previous;
      previous.next = next;
      next.previous = previous;
      if (heads[position] == timer) {
        heads[position] = next;
      }
    }
    if (timer.group != NO_GROUP) {
      counts[timer.group]--;
    }
    timer.next = null;
    timer.previous = null;
    timer.position = NOT_PENDING;
    timer.group = NO_GROUP;
  }

  /** Empties a list, leaving its timers not pending; the caller fixes bitmaps and counts. */
  private void forgetList(int position) {
    WheelTimer<T> first = heads[position];
    if (first == null) {
      return;
    }
    heads[position] = null;
    WheelTimer<T> timer = first;
    do {
      WheelTimer<T> next = timer.next;
      timer.next = null;
      timer.previous = null;
      timer.position = NOT_PENDING;
      timer.group = NO_GROUP;
      timer = next;
    } while (timer != first);
  }

  private void visitList(int position, Consumer<? super TimerHandle<T>> action) {
    WheelTimer<T> first = heads[position];
    if (first == null) {
      return;
    }
    WheelTimer<T> timer = first;
    do {
      action.accept(timer);
      timer = timer.next;
    } while (timer != first);
  }

  // ---------------------------------------------------------------- keys and time

  /** The slot of a level that holds a key. */
  int slotOf(long key, int level) {
    return (int) (key >>> shift[level]) & slotMask[level];
  }

  /**
   * The start of a level's range given the start of the level below: the first of its slots after
   * the one holding the lower level's start, or {@link #END} if that lies beyond 2^64 - 1.
   */
  long nextLevelMin(long lowerMin, int level) {
    int s = shift[level];
    long next = ((lowerMin >>> s) + 1) << s;
    return next == 0 ? END : next;
  }

  /** The end of a level's range given its start, saturated at {@link #END}. */
  long levelMax(long levelMin, int level) {
    long max = levelMin + spanMinusOne[level];
    return Long.compareUnsigned(max, levelMin) < 0 ? END : max;
  }

  /**
   * The key of a deadline at unsigned distance {@code dueElapsed >= 1} from the start: the interval
   * of the instant before it.
   */
  private long keyOf(long dueElapsed) {
    return intervalOf(dueElapsed - 1);
  }

  private long intervalOf(long elapsedTime) {
    return resolutionShift >= 0
        ? elapsedTime >>> resolutionShift : Long.divideUnsigned(elapsedTime, resolution);
  }

  /** The distance from the start at which a key fires: the end of its interval, saturated. */
  private long firesAt(long key) {
    long intervals = key + 1;
    if (Long.compareUnsigned(intervals, lastInterval) > 0) {
      return END;
    }
    return intervals * resolution;
  }

  /** The unsigned distance of a time from the start, placed relative to the clock. */
  private long elapsedAt(long time) {
    long offset = time - now;
    long result = elapsed + offset;
    if (offset < 0 ? Long.compareUnsigned(-offset, elapsed) > 0
        : Long.compareUnsigned(result, elapsed) < 0) {
      throw new IllegalArgumentException("time " + time + " is not within 2^64 - 1 units from the"
          + " start time " + startTime + " (the clock is at " + now + ")");
    }
    return result;
  }

  private static long saturatedAdd(long unsigned, long distance) {
    long sum = unsigned + distance;
    return Long.compareUnsigned(sum, unsigned) < 0 ? END : sum;
  }
}
