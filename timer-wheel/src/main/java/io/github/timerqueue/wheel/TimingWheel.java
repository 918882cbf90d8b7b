package io.github.timerqueue.wheel;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.spi.TimerQueueChecks;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The {@code wheel} strategy: the leveled timing wheel of Jane Street Core's <a
 * href="https://ocaml.org/p/core_kernel/latest/doc/Timing_wheel/index.html">{@code
 * Timing_wheel}</a>, a priority queue of timers keyed by interval number that sorts its keys
 * lazily, by radix, as the clock moves.
 *
 * <p>Time from the start time onwards is cut into half-open intervals of the {@linkplain
 * TimerConfig#resolution() resolution} {@code r}, numbered 0, 1, 2, ... ({@link #intervalNum}). A
 * timer fires in the first advance that enters the interval after the one holding the instant just
 * before its deadline: never early, and at the latest when the clock reaches the deadline rounded
 * up to a multiple of {@code r}. The levels, configured with the option {@value
 * #LEVEL_BITS_OPTION} (default {@value #DEFAULT_LEVEL_BITS}, level {@code i} having 2<sup>b<sub>i
 * </sub></sup> slots), hold at least the next 2<sup>b<sub>0</sub>+...+b<sub>n-1</sub></sup>
 * intervals ({@link #maxAllowedAlarmTime()}); a deadline beyond them is accepted and waits in an
 * overflow bucket until the levels reach it. With the default bits that is about 2^62 intervals.
 *
 * <h2>Costs</h2>
 * <ul>
 *   <li>{@code schedule}, {@code cancel}, {@code reschedule}: {@code O(1)} (finding the level
 *       compares the key with at most one bound per level), amortized over the occasional
 *       compaction of a bucket; no allocation beyond the handle once the wheel has held as many
 *       timers before. A cancel writes to the timer and to its bucket's counts, never to other
 *       timers; the reference its slot keeps goes when the bucket is compacted or empties, so a
 *       cancelled timer may stay reachable until then.
 *   <li>{@code advance}: {@code O(1)} per fired timer plus the cost of moving the clock. A level
 *       whose range did not move is not touched, and neither is any level above it; a level with no
 *       timers is stepped over; in a level that has timers, an occupancy bitmap leads to the
 *       occupied slots among those passed, and a move of any length passes each slot of a level at
 *       most once. So advancing one interval with many timers far away costs {@code O(1)}, and
 *       advancing very far costs at most one rotation of each non-empty level, never time in
 *       proportion to the distance. Each timer moves down at most once per level over its life,
 *       and its bucket is read sequentially when it does and when it fires.
 *   <li>{@code nextExpiryDelay}: exact to the interval. {@code O(1)} while the cached earliest timer
 *       is valid; it becomes invalid only when that timer is removed or fires. Finding the next one
 *       looks at the lowest level with timers: a bitmap search for its first occupied slot, then a
 *       scan of that slot's bucket (one timer's key at level 0, where a slot holds a single key),
 *       plus one bitmap search per level for coarse slots; the overflow bucket is scanned only
 *       when the levels are empty.
 *   <li>The overflow bucket: scanned whole, once each time the top level's range reaches the
 *       smallest key in it.
 *   <li>{@code size} {@code O(1)}; {@code clear}, {@code drain}, {@code forEach} {@code O(n)} plus
 *       one pass over the bitmaps.
 *   <li>Memory: a handle of 32 bytes per timer (with compressed references), and a slot of four
 *       bytes in its bucket's chain of 16-slot chunks, all in pages of 65,536 slots that are
 *       added, never copied, when they run out and are reused as buckets fill and empty (the
 *       first page starts small and grows up to that size; at most four filled slots per timer
 *       in a bucket of 32 filled slots or more, usually one); per level and kind of slot (by
 *       key, coarse), allocated with its first timer, a bitmap of 2<sup>b<sub>i</sub></sup> bits
 *       and a table of references that covers the slots from the level's start to the farthest
 *       one used so far (at most 2<sup>b<sub>i</sub></sup>), and a small bucket object per slot
 *       that holds five timers or more: a slot's first four timers are held by the table itself,
 *       linked through the timers, and take no slot in the slab.
 * </ul>
 *
 * <h2>Order</h2>
 * Timers with the same deadline, armed while that deadline was still ahead, fire in the order they
 * were armed (a {@code reschedule} counts as arming): the pending timers stored under one key are
 * in one bucket, in arming order, or in two, those armed before the key came within level 0's
 * reach ahead of those armed since, and handed out first. Advancing one interval at a time fires
 * timers in interval order, since each such advance fires exactly the timers of one key. An advance
 * that passes many intervals at once hands out timers grouped by the slot they were found in, not
 * necessarily in interval order. A timer armed with a deadline at or before {@link #now()} is due
 * at once, as the contract requires, and is handed out by the next advance ahead of the timers that
 * advance makes due; with a resolution above 1 it can therefore overtake a timer with the same
 * deadline that was armed earlier and is still waiting for its interval to end. Timers placed in
 * coarse slots by {@link #scheduleWithin scheduleWithin} fire after the timers stored by key in
 * their interval; among themselves, those with the same deadline fire in arming order.
 *
 * <h2>Use</h2>
 * Create one with {@link #create(TimerConfig)}, or cast a queue made by {@code
 * TimerQueues.create("wheel", config)} to {@code TimingWheel<T>} to reach {@code Timing_wheel}'s
 * own vocabulary: {@link #intervalNum}, {@link #intervalStart}, {@link #nextAlarmFiresAt}, {@link
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

  /*
   * Implementation notes.
   *
   * The algorithm is Jane Street Core's Timing_wheel
   * (https://ocaml.org/p/core_kernel/latest/doc/Timing_wheel/index.html): a priority queue
   * whose keys are interval numbers and whose minimum allowed key is the interval of the clock.
   * Advancing the clock is its increase_min_allowed_key, which removes (fires) every timer whose
   * key is below the new minimum. A timer's key is the number of the interval holding the instant
   * just before its deadline. Keys live in an array of levels of decreasing precision (Level):
   * level i has 2^b_i slots, each covering 2^(b_0 + ... + b_(i-1)) consecutive keys. Level 0
   * starts at the minimum allowed key and each higher level starts at the first of its slots that
   * follows the one holding the start of the level below. A timer goes to the lowest level that
   * holds its key, at the end of its slot's bucket. When the minimum allowed key rises, each level
   * whose start moved takes the slots it passed and moves their timers down to the lowest level
   * that now holds them, or to the due bucket: the lazy radix sort, each timer descending level by
   * level until it fires from level 0.
   *
   * Worked example: with levelBits "3,1", resolution 1 and start 0, level 0 has 8 slots for keys 0
   * to 7 and level 1 has 2 slots of 8 keys each, for keys 8 to 23. A timer for deadline 20 has key
   * 19 and goes to level 1; one for deadline 30 has key 29 and waits in the overflow bucket.
   * Advancing to 8 moves level 1 on to keys 16 to 31, which passes the overflow's smallest key, so
   * key 29 moves into level 1. Advancing to 16 makes level 0 cover keys 16 to 23: level 1 passes
   * the slot of keys 16 to 23 and moves key 19 down into level 0. Advancing to 20 fires it.
   *
   * Where this departs from Timing_wheel, and why:
   *
   * - Never early, to the unit. Timing_wheel fires an alarm at `at` once the clock passes the
   *   interval holding `at`, which for a deadline on an interval boundary is one interval late for
   *   this contract. Keying by the instant before the deadline (at = deadline - 1, which for whole
   *   numbers is its `at < now`) fires it exactly on the boundary.
   * - Every deadline is accepted. Timing_wheel raises for a time before now or at or after
   *   alarm_upper_bound. Here a deadline at or before now is due at the next advance, and keys
   *   beyond the levels wait in the overflow bucket, re-examined only when the top level's range
   *   passes a lower bound of its smallest key (made exact by each re-examination), so it costs
   *   nothing while the top level stands still.
   * - First in, first out. Timing_wheel's levels overlap: the top of a level's range can lie in
   *   the first slot of the level above, so a key can come within reach of a lower level while
   *   earlier timers with the same key still wait above, and a later timer fires first (with
   *   levelBits "2,2,2": a timer for key 20 armed at 0 goes to level 2, one armed at 4 to level 1,
   *   and at 12 the first is appended behind the second). Here a level holds only the keys below
   *   the start of the next level, so the levels partition the keys and each key has one bucket.
   * - Advancing far is cheap. increase_min_allowed_key takes time proportional to the increase;
   *   occupancy bitmaps, and passing each slot of a level at most once per advance, make it
   *   proportional to the occupied slots passed. Its min_elt is a linear search; here the bitmaps
   *   find the first occupied slot, and the earliest timer is cached.
   * - Coarse slots, for scheduleWithin, which Timing_wheel does not have: a second bucket per slot
   *   of each level i >= 1. Slot B of level i, covering keys from B * 2^s(i), is passed in the
   *   advance that enters interval B * 2^s(i) - (2^s(1) + ... + 2^s(i-1)); a timer in its coarse
   *   bucket has the key of the interval before, and is handed out right there, never moving down.
   * - Storage. Timing_wheel keeps each slot's elements in an intrusive doubly linked list. With a
   *   million timers, unlinking one touches three cache lines (the timer and both neighbours), and
   *   moving a slot down a level or firing it is a dependent cache miss per timer, the next
   *   address known only once the last timer arrived. Here a bucket is a chain of 16-slot chunks
   *   of one paged store (Bucket, Slab): a timer records its slab slot and the slab the bucket of
   *   each chunk, a cancel writes only to the timer, and emptying a bucket reads its slots in
   *   order, a cache line of sixteen timer references at a time, so the processor fetches the
   *   timers' own lines many at once.
   *   Holes left by cancels are bounded by compaction (see Bucket); chunks of emptied buckets go
   *   back to the slab's free chain and buckets of emptied slots to a spare list, so a steady
   *   flow of timers allocates nothing. A cancel marks only the timer and leaves a stale
   *   reference in its slot (Bucket#holds tells one): emptying the slot would be a store miss,
   *   and G1's post-write barrier on the next reference store (the schedule that follows a
   *   cancel appends a timer) fences until that miss completes. The price is that reading a
   *   bucket reads each stale timer to tell it is stale, which emptying a bucket and compacting
   *   it do anyway, sixteen timers at a time, and that a cancelled timer stays reachable until
   *   its bucket is compacted or emptied.
   *   A cancel or reschedule outside an advance goes further: it leaves its bucket's counting
   *   the timer out (Bucket#vacated: the bucket's and its level's counts, and the compaction
   *   they may call for) to the next operation, which settles it after its own append when it
   *   arms a timer, before anything else otherwise (settle). Finding the bucket through the slab
   *   and writing its counts touch lines that a cancel at random among a million timers misses,
   *   and the append's fence would wait for those writes; after the fence the misses overlap
   *   with the next operation's. With a million timers, schedule+cancel's thread CPU as a ratio
   *   to Agrona's in the same JVM fell from 1.22 to 1.13 by the median over sixteen pairs of
   *   JVMs, and reschedule's from 1.39 to 1.31 over 28 JVMs of each, 1.60 to 1.38 in those that
   *   ran while the machine was slow (OperationCpu; see docs/benchmarks.md). A cancel or
   *   reschedule from a handler counts out at once: the advance reads the counts of the buckets
   *   it hands out.
   *   A slot of a level that holds at most four timers holds them in a short list that starts
   *   at its table entry and runs through the timers' links, with no bucket (Level's
   *   short lists): with a thousand timers spread over a level of 1,024 slots, the occupied
   *   slots hold one to four, and a bucket object with its first chunk would cost 112 bytes for
   *   them, more than three timers. At a thousand timers that took a quarter of the memory.
   * - A timer is 32 bytes: payload, deadline, link (a level of its wheel, or the next timer of
   *   its short list), slot. It does not store its key, which is derived from its deadline and
   *   the clock when it moves (keyOf), nor its bucket, which is its slot's chunk's (Slab#bucketOf),
   *   nor its owner, which is the level's its link leads to, pending or not, so the foreign-handle
   *   check holds whether or not it is pending.
   * - No reference is stored in a timer when it moves between buckets, only its slot, an int: in
   *   a server a timer that waits long enough is tenured, and G1's post-write barrier on a
   *   reference store into an old object fences and queues the object's card for refinement. With
   *   the bucket kept in the timer, a million tenured timers made a reschedule cost several times
   *   what it costs with young ones (see WheelTimer). Nor is one stored in the slab when a chunk
   *   joins a bucket: the slab records the bucket's number, which spared G1's refinement threads
   *   about a third of the cards they scanned in the flows of expiring timers (see Slab).
   * - Due and firing are two buckets: timers that the next advance hands out are due; the running
   *   advance first swaps the due bucket in as the firing batch (if it has timers: both are empty
   *   otherwise, and the swap would only store two fenced references), so timers that its
   *   handlers arm at or before now join the (new, empty) due bucket and wait for the next
   *   advance. Timers it did not hand out (a limit, a handler that threw) go back in front of
   *   those. A passed slot of level 0 (one key) or a coarse slot is due whole, so when nothing is
   *   due yet its bucket becomes the due bucket (pass): its timers are not moved at all between
   *   being filed in level 0 and being handed out.
   * - A slot of level 1 already in key order is not sorted again. Timing_wheel moves every alarm
   *   of a passed slot down into the slots of the level below; when the clock enters the first
   *   key of a slot of level 1 whose timers are in key order (with a single TTL, all of them:
   *   timers are armed in deadline order), its bucket instead stays whole as the sorted bucket,
   *   which stands in for level 0's slots of its keys, and each advance hands out its first
   *   timers, those below the new minimum key, ahead of level 0's slots of the same keys (armed
   *   later). Moving the slot down had cost a read of every timer and a reference store per
   *   timer. Telling its order reads none: each bucket keeps it from the keys its timers join
   *   with (Bucket#keysInOrder), where reading every timer of the slot to tell made a single
   *   TTL's flow about 8% slower. A slot of level 1 out of key order, with at least one timer
   *   per key, is sorted by key in its bucket when the clock enters it (KeySort), a stable
   *   counting sort that is the lazy radix sort's step into level 0 done in place, and then
   *   stands in for level 0 in the same way: moved down, its timers took a bucket and a chunk
   *   for each key, each chunk a card at random for G1's refinement threads to scan. Passed
   *   slots elsewhere move down in runs of one key: the runs of a single TTL go with one array
   *   copy per chunk (Bucket#moveAll).
   *   Its timers are handed out and re-armed, with a single TTL, in runs into one slot of level 1:
   *   the bucket that filing joined last is kept (filedTo) while it stays in its slot, so a timer
   *   whose key is one of that slot's is appended to it without finding its level, its slot and
   *   the table entry, and filing compiles one append, small enough to be inlined into the
   *   handler that re-arms. Whether a timer of the sorted bucket is due is a compare of its
   *   deadline with a bound worked out once per hand-out (latestDueDistance), not its key.
   *
   * Unlike the other strategies, this class writes schedule, cancel and reschedule itself rather
   * than extending AbstractTimerQueue: it is public API, and that skeleton's type parameter would
   * put the package-private WheelTimer into its public signature and its protected methods.
   */

  /** The option that sets the level sizes in bits: {@value}. */
  public static final String LEVEL_BITS_OPTION = LevelBits.OPTION;
  /** The default level sizes, {@code Timing_wheel}'s 64-bit default of 62 bits: {@value}. */
  public static final String DEFAULT_LEVEL_BITS = LevelBits.DEFAULT;
  /** The most bits the levels may have in all, {@code Timing_wheel}'s {@code max_num_bits}: {@value}. */
  public static final int MAX_NUM_BITS = LevelBits.MAX_NUM_BITS;

  /** The buckets that no slot has from their start: the due, firing and overflow buckets. */
  private static final int UNSLOTTED_BUCKETS = 3;
  /** The largest unsigned key, {@link Level#END}. */
  static final long END = Level.END;

  private final long startTime;
  private final long resolution;
  /** log2 of the resolution if it is a power of two, else -1: division then is a shift. */
  private final int resolutionShift;
  /** The largest interval number whose end the clock can reach, {@code (2^64 - 1) / resolution}. */
  private final long lastInterval;
  /** The levels, most precise first. */
  final Level<T>[] levels;
  /** The slots of every bucket. */
  final Slab<T> slab;
  /** Buckets that no slot has, linked by {@link Bucket#nextSpare}, for slots that get timers. */
  Bucket<T> spareBuckets;
  /** Slots of the levels, of both kinds: no more buckets are ever needed. */
  private final int slotCount;
  /** Timers due: the next advance hands them out, in order. */
  Bucket<T> due;
  /** The batch the running advance hands out; empty outside of an advance. */
  Bucket<T> firing;
  /** Timers whose keys lie beyond the top level. */
  final Bucket<T> overflow;
  /**
   * A passed slot of level 1 whose timers are in key order, which stands in for the
   * level-0 slots of its keys, or {@code null}; an empty one waits here until the next takes its
   * place. Its keys lie in level 0's part, from the clock's interval on, and since they are in
   * order, the due ones are its first timers: each advance hands them out from where they are.
   */
  Bucket<T> sorted;
  /**
   * Within an advance, the sorted bucket whose timers with keys below the minimum allowed key are
   * due, to be handed out ahead of the due bucket, until they are; else none. It is still
   * {@link #sorted}, or the one before it, all of whose timers are due, which the next slot of
   * level 1 replaced as the clock entered that slot's keys. By number ({@link Bucket#number}), or
   * {@link Bucket#NO_NUMBER} for none: with a single TTL it is set in every advance, and a
   * reference stored in the wheel, an old object, runs G1's write barrier, whose fence waits for
   * every load and store before it.
   */
  private int sortedDueNumber = Bucket.NO_NUMBER;
  /**
   * The bucket of a slot by key that timers filed in the levels joined last, armed (from the
   * second in a row there on, see {@link #noteFiled}) or moved down by an advance, or {@code
   * null}; every key whose number shifted right by {@link #filedShift}, its level's shift, is
   * {@link #filedBlock} belongs to it. Timers come in runs of one slot: with a single TTL, all
   * those re-armed while the clock crosses a slot of level 1 go to one slot, so each of them skips
   * finding its level, its slot and the slot's table entry. A slot's keys stay in its level until
   * the level passes the slot, so the bucket is forgotten when it is passed ({@link #pass}) or
   * leaves its slot ({@link #forgetFiled}); while it is kept it holds timers, or is the one a run
   * is joining.
   */
  Bucket<T> filedTo;
  int filedShift;
  long filedBlock;
  /** The level's shift and the block of the slot of the last bucket that arming looked up. */
  private int lookedUpShift;
  private long lookedUpBlock = -1;

  private long now;
  /** Unsigned distance of the clock from the start time. */
  private long elapsed;
  /** The interval number of the clock: every key in the levels and overflow is at least it. */
  long minAllowedKey;
  private int size;
  /** At most the smallest key in the overflow bucket; {@link #END} when it is empty. */
  long overflowKeyLowerBound = END;
  /** The timer with the smallest key in the levels and overflow, if {@link #minimumKnown}. */
  WheelTimer<T> minimum;
  /** The key of {@link #minimum}. */
  long minimumKey;
  boolean minimumKnown = true;
  private boolean advancing;

  /**
   * The slab slot that the timer the last cancel or reschedule took out left, if its bucket still
   * counts it ({@link #settle}), else {@link WheelTimer#NOT_PENDING}. The slot's chunk stays in
   * that bucket until then: only counting out can release or compact it, and compacting it moves
   * the slot's stale reference, as it moves a timer, and this record with it.
   */
  int unsettledSlot = WheelTimer.NOT_PENDING;

  /**
   * Sorts a passed slot of level 1 whose timers are not in key order, made when the first slot
   * full enough to sort is passed ({@link KeySort}).
   */
  KeySort<T> keySort;

  /** What {@link Bucket#readAhead} read last: kept so that its reads are made. */
  long readAhead;

  /** Slots taken by advances, counted so that tests can check the cost bounds. */
  long slotVisits;
  /** Re-examinations of the overflow bucket, counted for tests. */
  long overflowScans;

  @SuppressWarnings("unchecked")
  private TimingWheel(TimerConfig config, LevelBits levelBits) {
    this.startTime = config.startTime();
    this.now = config.startTime();
    this.resolution = config.resolution();
    this.resolutionShift = Long.bitCount(resolution) == 1
        ? Long.numberOfTrailingZeros(resolution) : -1;
    this.lastInterval = Long.divideUnsigned(END, resolution);
    this.levels = (Level<T>[]) new Level<?>[levelBits.levels()];
    for (int level = 0; level < levels.length; level++) {
      long levelMin = level == 0
          ? 0 : Level.startAbove(levels[level - 1].minKey, levelBits.shift(level));
      levels[level] = new Level<>(this, levelBits, level, levelMin);
    }
    this.slab = new Slab<>();
    int slots = 0;
    for (Level<T> level : levels) {
      slots += 2 * (level.slotMask + 1);
    }
    this.slotCount = slots;
    slab.addBucketNumbers(UNSLOTTED_BUCKETS);
    this.due = new Bucket<>(this, 0);
    this.firing = new Bucket<>(this, 1);
    this.overflow = new Bucket<>(this, 2);
  }

  /**
   * Creates an empty timing wheel. This is what {@code TimerQueues.create("wheel", config)} does,
   * with the result typed as this class.
   *
   * @param config the start time, the resolution ({@code Timing_wheel}'s {@code alarm_precision}) and
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
   * is {@code Timing_wheel}'s {@code durations}. With the default level bits and a resolution of one
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
   * <p>{@code O(1)}: the timer goes to the end of the bucket of the slot of the lowest level that
   * holds its key, to the overflow bucket if no level does, or to the due bucket if its deadline is
   * not after {@link #now()}.
   */
  @Override
  public TimerHandle<T> schedule(long deadline, T payload) {
    WheelTimer<T> timer = new WheelTimer<>(levels[0], Objects.requireNonNull(payload, "payload"));
    arm(timer, deadline);
    settle();
    return timer;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The wheel looks for the coarsest slot whose firing lies within the range. A slot of level
   * {@code i >= 1} is passed, and hands out the timers of its coarse list, in the advance that
   * enters one particular interval; the timer is put in that coarse
   * bucket, under the key of the interval before, if handing it out there is neither before {@code
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
    WheelTimer<T> timer = new WheelTimer<>(levels[0], payload);
    long toEarliest = earliest - now;
    long toLatest = latest - now;
    // A latest more than Long.MAX_VALUE ahead wraps into the past; earliest alone is then safe.
    if (toEarliest <= 0 || toLatest < toEarliest
        || !armInCoarseSlot(timer, toEarliest, toLatest, latest)) {
      arm(timer, earliest);
    }
    settle();
    return timer;
  }

  /**
   * {@inheritDoc} {@code O(1)} amortized: the timer leaves its bucket (its slot becomes a hole,
   * whose stale reference goes when the bucket is compacted or empties), and a bucket left sparse
   * is now and then compacted.
   */
  @Override
  public boolean cancel(TimerHandle<T> timer) {
    WheelTimer<T> owned = own(timer);
    settle();
    if (owned.slot < 0) {
      return false;
    }
    if (advancing || owned.isListed()) {
      remove(owned);
    } else {
      forgetIfMinimum(owned);
      size--;
      unsettledSlot = owned.slot;
      owned.slot = WheelTimer.NOT_PENDING;
    }
    return true;
  }

  /**
   * {@inheritDoc} {@code O(1)} amortized: the timer leaves its bucket, as for {@link #cancel}, and
   * is armed again, at the end of its new bucket.
   */
  @Override
  public boolean reschedule(TimerHandle<T> timer, long deadline) {
    WheelTimer<T> owned = own(timer);
    if (owned.slot < 0) {
      arm(owned, deadline);
      settle();
      return false;
    }
    // Out of line, so that this method stays small enough for the JIT to inline it into a caller
    // that re-arms timers from inside an advance.
    rearmPending(owned, deadline);
    return true;
  }

  /**
   * Moves a pending timer to where {@code deadline} puts it, at the end of its new bucket. The new
   * slot that arming writes to the timer makes the old one a hole, as a removal would.
   */
  private void rearmPending(WheelTimer<T> timer, long deadline) {
    if (advancing || timer.isListed()) {
      settle();
      if (timer.isListed()) {
        remove(timer);
        arm(timer, deadline);
        return;
      }
      // The timer joins its new bucket before it leaves the old one, which the slab finds
      // through its old slot: that lookup, a cache miss among a million timers, is then in
      // flight while the new key and bucket are computed, rather than before.
      Bucket<T> left = slab.bucketOf(timer.slot);
      forgetIfMinimum(timer);
      size--;
      arm(timer, deadline);
      left.vacated();
      return;
    }
    // Outside an advance the old bucket counts the timer out later, as after a cancel: the
    // append's fence then waits for neither the lookup of that bucket nor the writes to its
    // counts. This slot is left to settle before the one the last operation left is settled, so
    // that a compaction which that causes, if the two share a bucket, keeps this slot's stale
    // reference (Bucket#compact).
    int leftSlot = timer.slot;
    forgetIfMinimum(timer);
    size--;
    arm(timer, deadline);
    int before = unsettledSlot;
    unsettledSlot = leftSlot;
    if (before >= 0) {
      slab.bucketOf(before).vacated();
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Moving the clock into a later interval is {@code Timing_wheel}'s {@code
   * increase_min_allowed_key}: the timers of the passed keys join the due bucket, which then
   * becomes the firing batch and is handed out in order.
   */
  @Override
  public int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit) {
    TimerQueueChecks.checkAdvance(onExpired, limit, advancing);
    settle();
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
    settle();
    if (due.size > 0 || firing.size > 0 || sortedHasDue()) {
      return 0;
    }
    if (size == 0) {
      return Long.MAX_VALUE;
    }
    long delay = firesAt(minimumKey()) - elapsed;
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
    settle();
    due.clear();
    firing.clear();
    overflow.clear();
    if (sorted != null) {
      sorted.clear();
    }
    Bucket<T> sortedDue = sortedDue();
    if (sortedDue != null) {
      // Within an advance, one that a newer sorted bucket replaced.
      sortedDue.clear();
    }
    for (Level<T> level : levels) {
      level.clear();
    }
    size = 0;
    overflowKeyLowerBound = END;
    minimum = null;
    minimumKnown = true;
  }

  @Override
  public int drain(Consumer<? super TimerHandle<T>> sink) {
    Objects.requireNonNull(sink, "sink");
    TimerQueueChecks.checkNotInHandler(advancing, "drain");
    settle();
    int drained = drain(due, sink) + drain(overflow, sink);
    if (sorted != null) {
      drained += drain(sorted, sink);
    }
    for (Level<T> level : levels) {
      Object entry;
      while ((entry = level.anyOccupied()) != null) {
        WheelTimer<T> listed = Level.headOf(entry);
        if (listed != null) {
          remove(listed);
          drained++;
          sink.accept(listed);
        } else {
          drained += drain(Level.<T>bucketOf(entry), sink);
        }
      }
    }
    return drained;
  }

  /** Hands every timer of a bucket to a sink, each removed first; returns how many. */
  private int drain(Bucket<T> bucket, Consumer<? super TimerHandle<T>> sink) {
    int drained = 0;
    // Not compacted while it is read by slot; it empties unless the sink throws.
    bucket.handingOut = true;
    try {
      int chunk = bucket.first;
      for (int i = 0; i < bucket.fill; i++) {
        if (Bucket.startsChunk(i)) {
          chunk = slab.next(chunk);
        }
        int slot = Bucket.slotIn(chunk, i);
        WheelTimer<T> timer = slab.get(slot);
        if (bucket.holds(timer, slot)) {
          remove(timer);
          drained++;
          sink.accept(timer);
        }
      }
    } finally {
      bucket.handingOut = false;
      bucket.compactIfSparse();
    }
    return drained;
  }

  @Override
  public void forEach(Consumer<? super TimerHandle<T>> action) {
    Objects.requireNonNull(action, "action");
    settle();
    due.forEach(action);
    firing.forEach(action);
    overflow.forEach(action);
    if (sorted != null) {
      sorted.forEach(action);
    }
    Bucket<T> sortedDue = sortedDue();
    if (sortedDue != null && sortedDue != sorted) {
      sortedDue.forEach(action);
    }
    for (Level<T> level : levels) {
      level.forEach(action);
    }
  }

  @Override
  public String toString() {
    StringBuilder bits = new StringBuilder();
    for (Level<T> level : levels) {
      bits.append(level.index == 0 ? "" : ",").append(level.bits);
    }
    return "TimingWheel{now=" + now + ", size=" + size + ", levelBits=" + bits
        + ", resolution=" + resolution + "}";
  }

  // ---------------------------------------------------------------- Timing_wheel's vocabulary

  /**
   * Returns the number of the interval that holds a time: 0 for the interval that starts at the
   * start time, then one more per resolution, counted as unsigned distances from the start time.
   * This is {@code Timing_wheel}'s {@code interval_num}.
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
   * Returns the interval number of {@link #now()}, {@code Timing_wheel}'s {@code now_interval_num}: the
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
   * {@code Timing_wheel}'s {@code interval_num_start}.
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
   * Returns the start of the interval that holds a time, {@code Timing_wheel}'s {@code
   * interval_start}.
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
   * Returns the earliest time to which the clock can be advanced so that a timer fires, {@code
   * Timing_wheel}'s {@code next_alarm_fires_at}: {@link #now()} if a timer is due, else the end of the interval of
   * the instant before the earliest deadline. For the earliest deadline {@code d}, the result
   * {@code next} satisfies {@code next - resolution < d <= next} ({@code Timing_wheel}, which fires an alarm at
   * {@code at} only once the clock passes it, has {@code next - precision <= at < next}). Never
   * more than {@link Long#MAX_VALUE} after {@code now()}: a timer within a resolution of that
   * limit reports the limit, the farthest one advance can reach. Costs what {@link
   * #nextExpiryDelay()} costs, plus the {@code OptionalLong}: an event loop that wants no
   * allocation uses {@code nextExpiryDelay()}.
   *
   * @return when the next timer fires, or empty if no timer is pending
   */
  public OptionalLong nextAlarmFiresAt() {
    settle();
    if (size == 0) {
      return OptionalLong.empty();
    }
    if (due.size > 0 || firing.size > 0 || sortedHasDue()) {
      return OptionalLong.of(now);
    }
    long distance = firesAt(minimumKey()) - elapsed;
    return OptionalLong.of(
        now + (Long.compareUnsigned(distance, Long.MAX_VALUE) > 0 ? Long.MAX_VALUE : distance));
  }

  /**
   * Advances the clock to {@code to} or to {@link #nextAlarmFiresAt()}, whichever comes first, and
   * fires what is due there: {@code Timing_wheel}'s {@code
   * advance_clock_stop_at_next_alarm}. Stepping an
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
    TimerQueueChecks.checkNotInHandler(advancing, "advance");
    long distance = to - now;
    long delay = nextExpiryDelay();
    return advance(distance > 0 && delay < distance ? now + delay : to, onExpired);
  }

  /**
   * Returns the latest deadline that the levels hold right now: a timer armed now with a later
   * deadline waits in the overflow bucket until the levels reach it. This is {@code Timing_wheel}'s
   * {@code max_allowed_alarm_time}, moved to deadlines; like it, it grows as the clock moves. If the
   * levels reach beyond everything a deadline can express, returns {@code now() +
   * Long.MAX_VALUE}.
   *
   * @return the latest deadline stored in the levels
   */
  public long maxAllowedAlarmTime() {
    long topMax = levels[levels.length - 1].maxKey;
    long reach = topMax == END ? END : firesAt(topMax);
    long distance = reach - elapsed;
    return now + (Long.compareUnsigned(distance, Long.MAX_VALUE) > 0 ? Long.MAX_VALUE : distance);
  }

  // ---------------------------------------------------------------- arming and removing

  private WheelTimer<T> own(TimerHandle<T> timer) {
    Objects.requireNonNull(timer, "timer");
    if (timer instanceof WheelTimer<T> owned && owned.owner() == this) {
      return owned;
    }
    throw TimerQueueChecks.foreignHandle(timer);
  }

  private void arm(WheelTimer<T> timer, long deadline) {
    timer.setDeadline(deadline);
    long distance = deadline - now;
    size++;
    Bucket<T> bucket = due;
    // The due bucket's key order is never read.
    long key = 0;
    if (distance > 0) {
      key = keyOf(saturatedAdd(elapsed, distance));
      noteArmed(timer, key);
      bucket = filedBucketOf(key);
      if (bucket == null) {
        bucket = bucketFor(timer, key);
        if (bucket == null) {
          return;
        }
      }
    }
    // The one append that arming compiles: with a single TTL, a run of timers re-armed into one
    // slot costs this, the key and the compare above, and arming stays small enough for the JIT
    // to inline it into a handler's reschedule.
    bucket.append(timer, key);
  }

  /**
   * Puts a timer, under the key of a moment within {@code [now + toEarliest, now + toLatest]}, in
   * the coarse bucket of the highest-level slot that is passed in that moment's advance; returns
   * false, changing nothing, if no level has one.
   */
  private boolean armInCoarseSlot(
      WheelTimer<T> timer, long toEarliest, long toLatest, long latest) {
    long lowestKey = keyOf(saturatedAdd(elapsed, toEarliest));
    long highestKey = keyOf(saturatedAdd(elapsed, toLatest));
    for (int index = levels.length - 1; index >= 1; index--) {
      Level<T> level = levels[index];
      long passOffset = level.passOffset();
      long passKey = level.firstPassAtOrAfter(lowestKey + 1, passOffset);
      if (passKey == 0 || Long.compareUnsigned(passKey - 1, highestKey) > 0) {
        continue;
      }
      long block = (passKey + passOffset) >>> level.shift;
      // The deadline is the start of the interval passKey, whose key is passKey - 1 (keyOf).
      timer.setDeadline(
          passKey - 1 == highestKey ? latest : now + (passKey * resolution - elapsed));
      size++;
      Bucket<T> bucket = level.bucketFor((int) block & level.slotMask, true, timer);
      if (bucket != null) {
        bucket.append(timer, passKey - 1);
      }
      noteArmed(timer, passKey - 1);
      return true;
    }
    return false;
  }

  /** Keeps the cached minimum right after a timer joined the levels or the overflow bucket. */
  private void noteArmed(WheelTimer<T> timer, long key) {
    if (minimumKnown && (minimum == null || Long.compareUnsigned(key, minimumKey) < 0)) {
      minimum = timer;
      minimumKey = key;
    }
  }

  /** Takes a pending timer out of its bucket; it is then not pending. */
  private void remove(WheelTimer<T> timer) {
    if (timer.isListed()) {
      forgetIfMinimum(timer);
      timer.level().removeListed(timer);
      size--;
    } else {
      removeFrom(slab.bucketOf(timer.slot), timer);
    }
  }

  /**
   * Takes a pending timer out of {@code bucket}, which holds it; it is then not pending. Handing
   * out a bucket knows the bucket, and so skips the slab's lookup of it ({@link Slab#bucketOf}),
   * two dependent loads per fired timer.
   */
  private void removeFrom(Bucket<T> bucket, WheelTimer<T> timer) {
    forgetIfMinimum(timer);
    bucket.remove(timer);
    size--;
  }

  /**
   * Lets the bucket of {@link #unsettledSlot} count out the timer that the last cancel or
   * reschedule took from it ({@link Bucket#vacated}), if it has not yet. Every operation calls this
   * before it reads a bucket's counts or moves its slots, except that arming calls it after its
   * append, whose fence then does not wait for the misses of finding and writing that bucket; a
   * reschedule outside an advance does the same work after its append without calling this, as it
   * leaves its own slot first (rearmPending).
   */
  void settle() {
    int slot = unsettledSlot;
    if (slot >= 0) {
      unsettledSlot = WheelTimer.NOT_PENDING;
      slab.bucketOf(slot).vacated();
    }
  }

  /** Forgets the cached minimum if it is {@code timer}, which is leaving its bucket. */
  private void forgetIfMinimum(WheelTimer<T> timer) {
    if (timer == minimum) {
      minimum = null;
      minimumKnown = false;
    }
  }

  /**
   * Where a timer whose key is at least the minimum allowed key is filed: the bucket of its slot of
   * the lowest level whose part of the keys holds it (below the next level's start), or the
   * overflow bucket; or nowhere, {@code null}, if it joined its slot's short list, which has room
   * ({@link Level#bucketFor}). A timer of the slot a run of timers joined last skips this ({@link
   * #filedTo}).
   */
  private Bucket<T> bucketFor(WheelTimer<T> timer, long key) {
    Level<T> level = levelOf(key);
    if (level == null) {
      noteOverflowKey(key);
      return overflow;
    }
    Bucket<T> bucket = level.bucketFor(level.slotOf(key), false, timer);
    if (bucket != null) {
      noteFiled(bucket, key, false);
    }
    return bucket;
  }

  /**
   * Remembers the bucket of a slot by key, of its level, that a timer of {@code key} joined: at
   * once if {@code atOnce}, else only if the last timer armed into a bucket without it went to
   * the same slot. Storing a reference in the wheel, an old object, runs G1's post-write barrier,
   * whose fence waits for every store before it: arming at random, which seldom files two timers
   * in a row in one slot, then stores only the slot's block, and the bucket remembered stays.
   */
  private void noteFiled(Bucket<T> bucket, long key, boolean atOnce) {
    int shift = bucket.level.shift;
    long block = key >>> shift;
    if (atOnce || (block == lookedUpBlock && shift == lookedUpShift)) {
      filedTo = bucket;
      filedShift = shift;
      filedBlock = block;
    }
    lookedUpShift = shift;
    lookedUpBlock = block;
  }

  /** {@link #filedTo} if {@code key} is one of its slot's, else {@code null}. */
  private Bucket<T> filedBucketOf(long key) {
    Bucket<T> bucket = filedTo;
    return bucket != null && key >>> filedShift == filedBlock ? bucket : null;
  }

  /** Forgets {@link #filedTo} if it is {@code bucket}, which leaves its slot. */
  void forgetFiled(Bucket<T> bucket) {
    if (bucket == filedTo) {
      filedTo = null;
    }
  }

  /**
   * The lowest level whose part of the keys holds a key at least the minimum allowed key (below
   * the next level's start), or {@code null} if it lies beyond the top level.
   */
  private Level<T> levelOf(long key) {
    int top = levels.length - 1;
    int index = 0;
    while (index < top && Long.compareUnsigned(key, levels[index + 1].minKey) >= 0) {
      index++;
    }
    Level<T> level = levels[index];
    return index < top || Long.compareUnsigned(key, level.maxKey) <= 0 ? level : null;
  }

  /** Keeps {@link #overflowKeyLowerBound} below the key of a timer that joined the overflow. */
  private void noteOverflowKey(long key) {
    if (Long.compareUnsigned(key, overflowKeyLowerBound) < 0) {
      overflowKeyLowerBound = key;
    }
  }

  /**
   * The bucket where timers of {@code key} taken out of a bucket by an advance now belong: the due
   * bucket if the key is below the minimum allowed key, else the slot's bucket in the lowest level
   * that holds it, or the overflow bucket. They join a bucket even as the first timers of their
   * slot, never a short list: the timers of a passed bucket come in runs of one key (with a single
   * TTL, each run is the timers armed in one interval), and the first of a run put in a short list
   * would be moved into a bucket by the fifth, work that a steady flow of timers pays for every
   * key.
   */
  Bucket<T> refileBucket(long key) {
    if (Long.compareUnsigned(key, minAllowedKey) < 0) {
      return due;
    }
    Bucket<T> bucket = filedBucketOf(key);
    if (bucket != null) {
      return bucket;
    }
    Level<T> level = levelOf(key);
    if (level == null) {
      noteOverflowKey(key);
      return overflow;
    }
    bucket = level.bucketFor(level.slotOf(key), false, null);
    noteFiled(bucket, key, true);
    return bucket;
  }

  // ---------------------------------------------------------------- advancing

  /**
   * {@code Timing_wheel}'s {@code increase_min_allowed_key}: moves each level's range up, from the
   * bottom, stopping at the first level whose range does not move; each level that moved and has
   * timers gives up the slots it passed.
   */
  private void increaseMinAllowedKey(long newMinimum) {
    if (minimum != null && Long.compareUnsigned(minimumKey, newMinimum) < 0) {
      minimum = null;
      minimumKnown = false;
    }
    minAllowedKey = newMinimum;
    if (sorted != null && sorted.size > 0) {
      // Its timers with keys below the new minimum are due, before those of level 0's slots of
      // the same keys, armed later: handed out from where they are if nothing is due yet, else
      // behind the timers that are.
      if (due.size == 0) {
        sortedDueNumber = sorted.number;
      } else {
        takeSortedDue(sorted, null, due, Integer.MAX_VALUE);
      }
    }
    int top = levels.length - 1;
    long levelMin = newMinimum;
    for (int index = 0; ; index++) {
      Level<T> level = levels[index];
      long oldMin = level.minKey;
      if (levelMin == oldMin) {
        return;
      }
      level.moveTo(levelMin);
      if (!level.isEmpty()) {
        passSlots(level, oldMin, levelMin);
      }
      if (index == top) {
        break;
      }
      levelMin = levels[index + 1].startAbove(levelMin);
    }
    if (overflow.size > 0
        && Long.compareUnsigned(overflowKeyLowerBound, levels[top].maxKey) <= 0) {
      reexamineOverflow();
    }
  }

  /** Takes the slots of a level that hold keys from {@code oldMin} up to {@code newMin}. */
  private void passSlots(Level<T> level, long oldMin, long newMin) {
    int slots = level.slotMask + 1;
    long passed = newMin == END ? END : (newMin - oldMin) >>> level.shift;
    if (Long.compareUnsigned(passed, slots) >= 0) {
      slotVisits += level.takeSlots(0, slots);
      return;
    }
    int first = level.slotOf(oldMin);
    int end = first + (int) passed;
    if (end <= slots) {
      slotVisits += level.takeSlots(first, end);
    } else {
      slotVisits += level.takeSlots(first, slots);
      slotVisits += level.takeSlots(0, end - slots);
    }
  }

  /**
   * Empties a bucket of a slot that a level passed. A slot of level 0 holds a single key, and a
   * coarse slot fires where it is passed, so all the timers of such a bucket are now due: if no
   * timer is due yet, the bucket itself becomes the due bucket, its timers staying in their slots,
   * and the empty due bucket becomes a spare. Otherwise each timer is filed where its key now
   * belongs, in order.
   */
  void pass(Bucket<T> bucket) {
    if ((bucket.coarse || bucket.level.index == 0) && due.fill == 0) {
      bucket.level.detach(bucket);
      bucket.assign(null, -1, false);
      Bucket<T> empty = due;
      due = bucket;
      giveBucket(empty);
    } else if (becomesSorted(bucket)) {
      bucket.level.detach(bucket);
      bucket.assign(null, -1, false);
      // The one it replaces is empty, or its timers, all due, are handed out by this advance,
      // which then lets it go.
      if (sorted != null && sorted != sortedDue()) {
        giveBucket(sorted);
      }
      sorted = bucket;
    } else {
      // Its keys now belong below it: refiled, none may join it.
      filedTo = null;
      bucket.moveAll(null);
    }
  }

  /**
   * Whether a passed bucket becomes the {@link #sorted} one, its timers staying in their bucket:
   * a slot of level 1 (by key) passed as the clock enters its first key, so that its keys are
   * exactly level 0's part now and none is due yet (the sorted bucket before it holds earlier
   * keys, all due), whose timers are in key order or, at least one per key of the slot, are sorted
   * by key here ({@link KeySort}). With a single TTL every slot of level 1 is in order, and the
   * lazy radix sort then has nothing to sort: moving its timers down into one bucket per key was
   * most of what a timer cost between being armed and firing.
   */
  private boolean becomesSorted(Bucket<T> bucket) {
    Level<T> level = bucket.level;
    if (level.index != 1 || bucket.coarse
        || (minAllowedKey & ((1L << level.shift) - 1)) != 0
        || keyOf(bucket.first()) >>> level.shift != minAllowedKey >>> level.shift) {
      return false;
    }
    if (bucket.keysInOrder) {
      return true;
    }
    if (!KeySort.worthSorting(bucket.size, level.shift, size)) {
      return false;
    }
    if (keySort == null) {
      keySort = new KeySort<>();
    }
    keySort.sort(bucket, minAllowedKey, level.shift);
    return true;
  }

  /**
   * Files a timer of the short list of a slot that a level passed, which took it out, where it
   * belongs: in a short list again if its new slot has room there, since it comes with few others.
   */
  void passListed(WheelTimer<T> timer) {
    long key = keyOf(timer);
    Bucket<T> bucket = Long.compareUnsigned(key, minAllowedKey) < 0 ? due : bucketFor(timer, key);
    if (bucket != null) {
      bucket.append(timer, key);
    }
  }

  /**
   * Moves the overflow timers that the top level now reaches into the levels (or the due bucket),
   * keeping the others in order, and makes the overflow's key bound exact.
   */
  private void reexamineOverflow() {
    overflowScans++;
    overflowKeyLowerBound = END;
    overflow.moveAll(null);
  }

  /**
   * Hands out the due timers, oldest first, at most {@code limit}: the due bucket becomes the
   * firing batch, and timers that handlers make due join the new, empty due bucket. Afterwards,
   * also after a handler threw, the timers of the batch not handed out go back in front of those.
   */
  private int handOutDue(Consumer<? super TimerHandle<T>> onExpired, int limit) {
    if (due.size == 0 && sortedDueNumber == Bucket.NO_NUMBER) {
      return 0;
    }
    // The firing batch is empty outside an advance, so with no timer in the due bucket (only the
    // sorted bucket's are due, as in every advance of a single TTL) the two do not trade places:
    // a trade stores two references in the wheel, each fenced by G1's write barrier.
    Bucket<T> batch = firing;
    if (due.fill > 0) {
      batch = due;
      due = firing;
      firing = batch;
    }
    batch.handingOut = true;
    advancing = true;
    int fired = 0;
    Bucket<T> handedOut = sortedDue();
    try {
      if (handedOut != null) {
        fired = takeSortedDue(handedOut, onExpired, null, limit);
        if (fired == limit) {
          return fired;
        }
        sortedDueNumber = Bucket.NO_NUMBER;
      }
      if (batch.fill == 0) {
        return fired;
      }
      // Handlers arm timers in the due bucket, never in this one, and may empty or clear it; the
      // slab may grow, so its pages are read anew each time.
      int chunk = batch.first;
      readAhead = Bucket.readAhead(slab, chunk);
      for (int i = 0; fired < limit && i < batch.fill; i++) {
        if (Bucket.startsChunk(i)) {
          chunk = slab.next(chunk);
          readAhead ^= Bucket.readAhead(slab, chunk);
        }
        int slot = Bucket.slotIn(chunk, i);
        WheelTimer<T> timer = slab.get(slot);
        if (batch.holds(timer, slot)) {
          removeFrom(batch, timer);
          fired++;
          onExpired.accept(timer);
        }
      }
      return fired;
    } finally {
      endHandOut(batch, handedOut);
    }
  }

  /**
   * Ends {@link #handOutDue}, on every way out of it: the timers of the batch, or of the sorted
   * bucket {@code handedOut}, that it did not hand out go back in front of those made due since.
   * Out of line because a {@code finally} block is compiled once per way out: written in place, it
   * made handOutDue more than twice its size, past what C2 inlines into advance.
   */
  private void endHandOut(Bucket<T> batch, Bucket<T> handedOut) {
    advancing = false;
    batch.handingOut = false;
    if (sortedDueNumber != Bucket.NO_NUMBER) {
      sortedDueNumber = Bucket.NO_NUMBER;
      putSortedDueInFront(handedOut, batch);
    } else if (batch.size > 0) {
      batch.compactIfSparse();
      due.moveAll(batch);
      firing = due;
      due = batch;
    }
    if (handedOut != null && handedOut != sorted) {
      // Replaced by the next sorted bucket, and now empty.
      giveBucket(handedOut);
    }
  }

  /**
   * Takes the timers of a sorted bucket whose keys are below the minimum allowed key out of it, in
   * order, at most {@code limit}: hands each to {@code onExpired}, fired, or if that is {@code
   * null} appends it to {@code into}; returns how many. The bucket is in key order, so its first
   * timer at or above the minimum ends them, and the chunks before that timer, holes only, go back
   * to the slab.
   */
  private int takeSortedDue(
      Bucket<T> bucket, Consumer<? super TimerHandle<T>> onExpired, Bucket<T> into, int limit) {
    bucket.handingOut = true;
    int taken = 0;
    int i = bucket.leadingHoles;
    long latestDue = latestDueDistance();
    try {
      // Handlers may cancel its timers or clear it, never add one. It starts past the timers
      // the last hand-out took, and reads each chunk ahead as it enters it: the first one, which
      // the last hand-out or the bucket's check of its order entered, not again, since the
      // hand-outs of one TTL take half a chunk each.
      int chunk = bucket.first;
      for (; taken < limit && i < bucket.fill; i++) {
        if (Bucket.startsChunk(i)) {
          chunk = slab.next(chunk);
          readAhead ^= Bucket.readAhead(slab, chunk);
        }
        int slot = Bucket.slotIn(chunk, i);
        WheelTimer<T> timer = slab.get(slot);
        if (bucket.holds(timer, slot)) {
          if (timer.deadline() - now > latestDue) {
            break;
          }
          taken++;
          if (onExpired != null) {
            removeFrom(bucket, timer);
            onExpired.accept(timer);
          } else {
            forgetIfMinimum(timer);
            bucket.remove(timer);
            into.append(timer, keyOf(timer));
          }
        }
      }
    } finally {
      bucket.handingOut = false;
      if (bucket.size > 0) {
        // Every filled slot before i is a hole, and a timer is left after them.
        bucket.dropLeadingChunks(i >>> Slab.CHUNK_SHIFT);
        bucket.leadingHoles = (byte) (i & (Slab.CHUNK - 1));
        bucket.compactIfSparse();
      }
    }
    return taken;
  }

  /**
   * After an advance stopped (at its limit, or a handler threw) before it handed out every due
   * timer of a sorted bucket: the due bucket becomes those timers, then the batch, which the
   * advance had not started, then the timers that its handlers made due, in that order.
   */
  private void putSortedDueInFront(Bucket<T> sortedBucket, Bucket<T> batch) {
    Bucket<T> madeDue = due;
    due = takeBucket(null, -1, false);
    takeSortedDue(sortedBucket, null, due, Integer.MAX_VALUE);
    batch.moveAll(due);
    madeDue.moveAll(due);
    giveBucket(madeDue);
  }

  /** The bucket {@link #sortedDueNumber} names, or {@code null}. */
  private Bucket<T> sortedDue() {
    return sortedDueNumber == Bucket.NO_NUMBER ? null : slab.bucket(sortedDueNumber);
  }

  /** Whether, within an advance, timers of a sorted bucket are still due. */
  private boolean sortedHasDue() {
    Bucket<T> bucket = sortedDue();
    return bucket != null && bucket.size > 0
        && Long.compareUnsigned(keyOf(bucket.first()), minAllowedKey) < 0;
  }

  // ---------------------------------------------------------------- the minimum

  /** The key of {@code Timing_wheel}'s {@code min_elt}; there must be a timer outside due. */
  private long minimumKey() {
    if (!minimumKnown) {
      findMinimum();
    }
    return minimumKey;
  }

  /**
   * Finds the timer with the smallest key outside the due bucket: in the first occupied slot of
   * the lowest level with timers by key, or a coarse one, or else in the overflow bucket.
   */
  private void findMinimum() {
    WheelTimer<T> best = null;
    long bestKey = END;
    for (Level<T> level : levels) {
      if (level.keyed > 0) {
        // The levels partition the keys in order, so the lowest non-empty one has the smallest.
        Object entry = level.occupied(level.firstOccupiedSlot(false), false);
        Bucket<T> bucket = Level.bucketOf(entry);
        if (bucket == null) {
          for (WheelTimer<T> listed = Level.headOf(entry); listed != null;
              listed = listed.nextListed()) {
            long key = keyOf(listed);
            if (best == null || Long.compareUnsigned(key, bestKey) < 0) {
              best = listed;
              bestKey = key;
            }
          }
          break;
        }
        long blockStart = (keyOf(bucket.first()) >>> level.shift) << level.shift;
        long floor = Long.compareUnsigned(blockStart, level.minKey) < 0 ? level.minKey : blockStart;
        int chunk = bucket.first;
        for (int i = 0; i < bucket.fill && (best == null || bestKey != floor); i++) {
          if (Bucket.startsChunk(i)) {
            chunk = slab.next(chunk);
          }
          int slot = Bucket.slotIn(chunk, i);
          WheelTimer<T> timer = slab.get(slot);
          if (bucket.holds(timer, slot)) {
            long key = keyOf(timer);
            if (best == null || Long.compareUnsigned(key, bestKey) < 0) {
              best = timer;
              bestKey = key;
            }
          }
        }
        break;
      }
    }
    if (sorted != null && sorted.size > 0) {
      // In key order: its first timer has its smallest key.
      WheelTimer<T> candidate = sorted.first();
      long key = keyOf(candidate);
      if (best == null || Long.compareUnsigned(key, bestKey) < 0) {
        best = candidate;
        bestKey = key;
      }
    }
    for (int index = 1; index < levels.length; index++) {
      Level<T> level = levels[index];
      if (level.coarse > 0) {
        // Coarse slots fire in slot order, and all timers of one coarse slot share its key.
        WheelTimer<T> candidate =
            Level.firstOf(level.occupied(level.firstOccupiedSlot(true), true));
        long key = keyOf(candidate);
        if (best == null || Long.compareUnsigned(key, bestKey) < 0) {
          best = candidate;
          bestKey = key;
        }
      }
    }
    if (best == null) {
      int chunk = overflow.first;
      for (int i = 0; i < overflow.fill; i++) {
        if (Bucket.startsChunk(i)) {
          chunk = slab.next(chunk);
        }
        int slot = Bucket.slotIn(chunk, i);
        WheelTimer<T> timer = slab.get(slot);
        if (overflow.holds(timer, slot)) {
          long key = keyOf(timer);
          if (best == null || Long.compareUnsigned(key, bestKey) < 0) {
            best = timer;
            bestKey = key;
          }
        }
      }
      if (best != null) {
        overflowKeyLowerBound = bestKey;
      }
    }
    minimum = best;
    minimumKey = bestKey;
    minimumKnown = true;
  }

  // ---------------------------------------------------------------- keys and time

  /**
   * The key of a timer in the levels or the overflow bucket, derived from its deadline: the
   * interval of the instant before it. Such a timer's deadline lies less than a resolution before
   * the clock (its interval has not ended) and at most {@link Long#MAX_VALUE} after it (it was at
   * most that far when armed), so its distance from the clock, added to the clock's distance
   * from the start and saturated as when it was armed, is its distance from the start. A coarse
   * timer's deadline is the start of the interval that passes its slot (or {@code latest}, in the
   * interval before), so this gives the key it was filed under.
   */
  long keyOf(WheelTimer<T> timer) {
    long distance = timer.deadline() - now;
    long dueElapsed = elapsed + distance;
    if (distance > 0 && Long.compareUnsigned(dueElapsed, elapsed) < 0) {
      dueElapsed = END;
    }
    return keyOf(dueElapsed);
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

  /**
   * The greatest distance from the clock, {@code deadline - now}, of a timer in the levels whose
   * key is below the minimum allowed key: minus how far the clock is into its interval, so that
   * the test of a timer of a sorted bucket is a subtraction and a compare rather than its key.
   * Such a timer's distance from the start, {@code d = elapsed + (deadline - now)}, is at least 1;
   * if its deadline is ahead of the clock its key is at least the clock's interval, and otherwise
   * {@code d} does not wrap, and its key {@code (d - 1) / resolution} is below {@code
   * minAllowedKey} if and only if {@code d <= minAllowedKey * resolution}, which is at most {@code
   * elapsed}.
   */
  private long latestDueDistance() {
    return minAllowedKey * resolution - elapsed;
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

  /**
   * A bucket for a slot of a level: a spare one. When there is none, a quarter again as many as
   * were made so far are made at once (at least one, at most one per slot of the levels in all),
   * so that, as with the slab's chunks, a workload's later peaks of occupied slots find a spare
   * bucket instead of allocating one; a quarter, not more, and one at a time while there are few,
   * because a wheel with few timers has few slots of five timers or more (none at a thousand
   * timers spread over a level but the one that holds the timers of the next level).
   */
  Bucket<T> takeBucket(Level<T> level, int index, boolean coarse) {
    if (spareBuckets == null) {
      int first = slab.bucketCount();
      int made = first - UNSLOTTED_BUCKETS;
      int more = Math.max(1, Math.min(made >>> 2, slotCount - made));
      slab.addBucketNumbers(more);
      for (int number = first; number < first + more; number++) {
        giveBucket(new Bucket<>(this, number));
      }
    }
    Bucket<T> bucket = spareBuckets;
    spareBuckets = bucket.nextSpare;
    bucket.nextSpare = null;
    bucket.assign(level, index, coarse);
    return bucket;
  }

  /** Keeps an empty bucket that no slot has any more. */
  void giveBucket(Bucket<T> bucket) {
    bucket.nextSpare = spareBuckets;
    spareBuckets = bucket;
  }

  /** The name of a bucket that is not a slot of a level, for messages. */
  String nameOf(Bucket<T> bucket) {
    return bucket == due ? "due" : bucket == firing ? "firing"
        : bucket == sorted ? "sorted" : "overflow";
  }
}
