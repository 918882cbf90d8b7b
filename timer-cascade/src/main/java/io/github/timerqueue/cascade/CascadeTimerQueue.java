package io.github.timerqueue.cascade;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.spi.AbstractTimerQueue;
import io.github.timerqueue.spi.TimerQueueChecks;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The {@code cascade} strategy: a cascading timer wheel after the ccan timer design, with levels of
 * 2<sup>bits</sup> buckets ({@code levelBits}, 8 by default) and a far bucket (ccan's far list) for
 * what lies beyond the last level.
 *
 * <h2>Ticks and the base</h2>
 * The wheel counts in ticks: the resolution, counted from the start time. A timer's tick is its
 * deadline's unsigned distance from the start time rounded <em>up</em> to a tick, so it never
 * fires early and fires at the latest at that rounded-up deadline. The <em>base</em> is the tick
 * the clock is in (the clock rounded down); no timer in the wheel has a tick at or before it. A
 * timer whose deadline is at or before the clock when it is armed goes straight to the <em>due
 * bucket</em>, which the next {@code advance} hands out even if it does not move the clock.
 *
 * <h2>Levels, buckets and the far bucket</h2>
 * A timer's level comes from the size of its distance from the base: level {@code L} if {@code
 * 2^(bits*L) <= tick - base < 2^(bits*(L+1))}. Its bucket in that level is the level-{@code L}
 * digit of its own tick, {@code (tick >>> bits*L) & (2^bits - 1)}, not of the distance. Level
 * {@code L} thereby holds timers from the 2<sup>bits</sup> groups of 2<sup>bits&middot;L</sup>
 * ticks that follow the base's own group, one group per bucket. A timer whose level has not been
 * created goes to the far bucket. Levels are created lazily, only when the far bucket is swept
 * (below), and only as many as the timers in it need; a queue whose timers are never more than
 * 2<sup>bits</sup> ticks away has one level.
 *
 * <h2>Moving the base: the cascade</h2>
 * When the base moves to a new tick, every level whose group the new base has entered (every level
 * {@code L} at or below the highest base-2<sup>bits</sup> digit in which the old and new base
 * differ) empties exactly one bucket: the one of the new base's level-{@code L} digit, highest
 * level first. Its timers are re-filed by their distance from the new base, into the levels below
 * it, or into the due bucket if their tick is the new base. When the new base leaves the group of
 * the last level, the far bucket is swept the same way, after creating the levels its timers need.
 *
 * <p>A walk through one cascade, with {@code levelBits} 2 (four buckets per level, ticks written in
 * base 4 as well) and the base at 5 = 11<sub>4</sub>:
 * <ul>
 *   <li>a timer at 7 = 13<sub>4</sub> is 2 away: level 0, bucket 3 (the last digit of 13);
 *   <li>a timer at 13 = 31<sub>4</sub> is 8 away: level 1, bucket 3 (the middle digit of 31);
 *   <li>a timer at 22 = 112<sub>4</sub> is 17 away: level 2, bucket 1 (the first digit of 112).
 * </ul>
 * Stepping the clock one tick at a time: at 7, level 0's bucket 3 is emptied and the first timer is
 * due. At 8 = 20<sub>4</sub> the middle digit changes, so level 1's bucket 2 and level 0's bucket 0
 * are emptied (both are empty). At 12 = 30<sub>4</sub> level 1's bucket 3 is emptied: the timer at
 * 13 is now 1 away and moves to level 0, bucket 1, and is due at 13. At 16 = 100<sub>4</sub> the
 * first digit changes: level 2's bucket 1 is emptied first, moving the timer at 22 (6 away) to
 * level 1, bucket 1; then level 1's bucket 0 and level 0's bucket 0 are emptied. At 20 =
 * 110<sub>4</sub> level 1's bucket 1 moves it to level 0, bucket 2, and at 22 it is due. A single
 * {@code advance(30)} moves the base only to 7, 13, 22 and 30: it jumps straight to the next tick
 * that holds a timer, found through the levels' low-water marks, and at each jump empties one
 * bucket in each level whose group changed. The jump from 7 to 13 enters a new level-1 group, so
 * level 1's bucket 3 is emptied and the timer at 13, now 0 away, goes straight to the due bucket.
 *
 * <h2>Buckets already in tick order</h2>
 * When the clock steps a single tick into a new group of a level above 0, and that level's bucket
 * of the group holds its timers in tick order, as one TTL fills it (timers armed in deadline
 * order), and at least {@value #SORTED_MINIMUM} of them, the bucket is not emptied: it becomes
 * the level's <em>sorted bucket</em>, which stands in for the buckets of the levels below over its
 * group. Its timers stay where they are, and each later step of one tick hands out its first
 * timers, those of the new base, ahead of the level-0 bucket of the same tick, whose timers were
 * armed after them. One sorted bucket holds timers at a time. A move of the base by more than one
 * tick first empties the sorted bucket as above, into the levels below. A bucket records whether
 * its timers came in tick order as they join it, so that finding it in order reads none of them;
 * the record compares the low 31 bits of ticks, so only levels whose buckets' ticks lie within
 * 2<sup>30</sup> of each other keep one (with 8 bits per level, levels 1 and 2).
 *
 * <h2>Finding the earliest timer</h2>
 * Each level (and the far bucket) keeps a low-water mark, a tick no timer in it precedes, lowered
 * when a timer is filed and never touched when one is deleted, and a witness: the timer that set
 * it. While the witness is still in that level with that tick, the mark is exact. Otherwise the
 * level's first occupied bucket is found through its bitmap and scanned for its earliest tick. The
 * answer is kept until a timer is taken out or the base moves. So {@link #nextExpiryDelay()} is
 * exact to the resolution and usually costs nothing more than reading that answer, or a look at
 * each level.
 *
 * <h2>Memory</h2>
 * A pending timer takes its 32-byte handle (payload, deadline, its queue and its position: kind of
 * bucket and slot) and one 4-byte slot in its bucket's array, whose capacity is a power of two; about 36 to 40 bytes
 * in all, with compressed references, for a queue filled ahead of its clock. Cancel leaves a hole
 * in its bucket, and a bucket holds at most three holes per timer (plus a few dozen) before it is
 * compacted, or a quarter of its array when that is full. The arrays that buckets empty or
 * outgrow are kept for the buckets that fill next while all arrays together hold at most three
 * slots per timer (plus a few thousand), so a wheel turning at a steady load allocates nothing,
 * and costs about 38 to 47 bytes per timer as its buckets fill and empty; each level costs
 * 2<sup>bits</sup> small bucket objects once created. A sorted bucket keeps the array it took
 * until its last timer goes, the slots of the timers it has handed out empty, and bounds its holes
 * as the due bucket does. A position is an {@code int}, so a queue holds at most 2<sup>27</sup>
 * (134,217,728) timers with 8 bits per level: 2<sup>31</sup> divided by the next power of two
 * above {@code ceil(64 / bits) + 2}, the kinds of bucket, from 2<sup>24</sup> with 1 bit to
 * 2<sup>28</sup> with 13 or more; arming one more throws {@link IllegalStateException}.
 *
 * <h2>Costs</h2>
 * With {@code k} levels ({@code k <= ceil(64 / bits)}, and only as many as the deadlines in use
 * need): {@code schedule}, {@code cancel} and {@code reschedule} {@code O(1)} (amortized, as a
 * bucket's array grows or shrinks by doubling), allocating nothing but the handle of {@code
 * schedule} once the arrays are in place; {@code advance} {@code O(k)} per tick between the old and
 * new clock that holds timers (empty stretches are jumped), plus {@code O(1)} per timer re-filed
 * (about once per level it descends) and per timer fired, plus the far bucket's length each time
 * the last level's group changes, plus, when the clock steps one tick into a group and the emptied
 * bucket is in tick order, a read of its last timer;
 * {@code nextExpiryDelay} {@code O(1)} while nothing was taken out and the base did not move since
 * the last call, else {@code O(k)} while the low-water marks are
 * confirmed by their witnesses, and otherwise a bitmap scan ({@code 2^bits / 64} words) and, above
 * level 0, a scan of one bucket, which is needed again only after that level's earliest timer is
 * cancelled or cascaded away; {@code size} {@code O(1)}; {@code clear}, {@code drain} and {@code
 * forEach} {@code O(n + k * 2^bits / 64)}.
 *
 * <h2>Ordering</h2>
 * Timers handed out by one {@code advance} come in the order of their ticks (a timer armed with a
 * deadline already due counts as due at the clock's tick when it was armed). Timers of the same
 * tick come in no specified order: it depends on the path each took down the levels. Timers left
 * due by a {@code limit} or a throwing handler come first in the next {@code advance}.
 *
 * <h2>Where this departs from the design text</h2>
 * <ul>
 *   <li>The text steps the offset one second at a time; a caller-clocked queue may jump ahead by
 *   any amount. The rule "empty bucket 1 of level 1 at 500,000,010" generalizes to: at the new
 *   base, empty in every level whose group the base has entered the bucket of the new base's digit.
 *   With that, the base can jump from one occupied tick to the next.
 *   <li>The text says that at 500,000,020 "bucket 1 of the second level" is emptied; it is bucket
 *   2, the second level's digit of 500,000,020, as the rule above and the example at 500,000,010
 *   imply.
 *   <li>The text moves emptied timers one level down; here they are re-filed by their distance from
 *       the new base, so a timer may drop several levels at once (at 500,000,100 a timer at
 *       500,000,105 goes straight from the third level to the first). The order, highest level
 *       first, files each timer once per move of the base, except one that a higher level files
 *       exactly 2<sup>bits</sup> groups ahead in a lower one, which that level's sweep files again,
 *       into the same bucket.
 *   <li>The text only suggests adding levels when the far list grows long. Here every sweep of the
 *       far bucket creates the levels its timers need, so the far bucket only holds timers armed
 *       since the last sweep beyond the last level.
 *   <li>The text keeps timers in lists; here a bucket is an array of slots (see Memory), which
 *       changes where a timer sits, not which bucket it is in or when it moves.
 *   <li>The text moves every emptied bucket's timers down. A bucket already in tick order is kept
 *       whole instead, as the sorted bucket, when the clock steps into its group: moving its
 *       timers down level by level would only sort them again, one bucket per tick.
 *   <li>The text has no timers before its offset. Deadlines at or before the clock go to the due
 *       bucket; a deadline in the past, or more than {@code Long.MAX_VALUE} ahead, is due now.
 * </ul>
 */
final class CascadeTimerQueue<T> extends AbstractTimerQueue<T, CascadeTimer<T>> {
  /*
   * Layout. A timer is a 32-byte handle (payload, deadline, its queue, position) and one 4-byte
   * slot in a bucket's array; no list links, no stored tick.
   *
   * - The position is an int: the kind of the bucket above slotBits bits of slot (see
   *   CascadeTimer). Kinds 0 and 1 are the two due buckets, 2 the far bucket, 3 + L level L; the
   *   bucket of a level is the one of the timer's tick's digit, derived from its deadline. The
   *   buckets also have numbers, for the sweeps' destinations: 0 and 1 the due buckets, 2 the far
   *   bucket, then level L's bucket of digit d is 3 + (L << bits) + d, which `buckets` maps to the
   *   bucket in one array load.
   * - A handle names its queue, which is how a foreign handle is refused: the queue reference is
   *   written once, when the handle is created, so it costs no write barrier later. Before it,
   *   the position was a long naming the bucket's number, and a queue recognized its pending
   *   handles by loading the slot named and finding them there: a cache miss on the path of every
   *   cancel and reschedule, which made a reschedule at a million timers take a quarter more
   *   thread CPU than it does now (OperationCpu reschedule: 1.0 to 1.15 times Agrona's before,
   *   0.74 to 0.87 after, over nine JVMs each; schedule+cancel 0.94 to 1.09 before, 0.82 to 1.0
   *   after). With ten thousand timers, all in cache, deriving the bucket from the deadline
   *   costs a schedule+cancel 3 to 5 ns more (about a tenth).
   * - Cancel: the handle and its slot, which it empties without reading it. Moving the bucket's
   *   last timer into the slot instead would write that timer's position, a third line, and
   *   measured a quarter slower per schedule+cancel at a million timers. Leaving the slot for the
   *   next operation to empty after its append, as a move within the wheel does, measured no
   *   faster in thread CPU against the floor in the same JVM (docs/benchmarks.md). Holes are
   *   bounded (see Bucket); sweeps skip them.
   * - Schedule: the handle and the last slot of its bucket, which recent appends keep in cache.
   * - Reschedule within the wheel: the timer is filed first, and its old slot is emptied by the
   *   next operation, after that one has filed its own timer (see moveWithinWheel and settle).
   *   What a reschedule of a million timers costs, taken apart (OperationCpu, thread CPU per
   *   operation, reduced versions of this method): reading and writing the handle alone, 48 ns,
   *   as the CPU overlaps the misses of consecutive operations; plus emptying the old slot, a
   *   store that misses, 102 ns; plus storing the timer in its new bucket, whose G1 barrier
   *   fences, 164 ns with the old slot emptied before, 141 ns with it emptied right after and 130
   *   ns with it not emptied at all. The fence waits for every load and store before it, so each
   *   operation's misses no longer overlap the next one's, and a store that misses before it
   *   adds its whole latency. Emptying the slot one operation later measured 0.75 to 0.80 of
   *   Agrona's per reschedule where emptying it right after measured 0.83 to 0.89, in pairs of
   *   JVMs. Storing the handle in its new slot before reading it (in an Object[], which needs no
   *   class check) measured no faster, and made a schedule+cancel, which files a timer that is
   *   not pending, half again slower.
   * - A cascade or firing reads a bucket's slots in order, contiguous memory the prefetcher
   *   streams, and touches each timer once to read its deadline and write its position; the
   *   timers' loads are independent, so the CPU overlaps their misses. Timers bound for the same
   *   bucket in consecutive slots move with one System.arraycopy: on HotSpot's G1 each reference
   *   stored into an old array pays a write barrier with a full memory fence, which a copy pays
   *   once per run. With one TTL a bucket fills in deadline order, so its timers move in runs of
   *   their whole share of each bucket below.
   * - A timer's tick is derived from its deadline when it is filed or re-filed (Ticks.tickOf),
   *   which keeps the handle at 32 bytes.
   * - A sorted bucket (keepsSorted). With one TTL at a million timers every re-armed timer lands
   *   in a level-2 bucket in tick order, and the sweeps moved it twice, level 2 to 1 to 0, before
   *   the due bucket took it: those moves were most of what a timer cost between being armed and
   *   firing (see docs/benchmarks.md). Now the bucket's array passes whole to its level's sorted
   *   bucket (a DueBucket, which keeps order through cancels and compactions), and its timers
   *   are handed out from there. Their positions still name the level and their slot: a level's
   *   buckets hold no timer in the base's own group of the level, so a timer of that level whose
   *   tick lies in that group is in the sorted bucket, which the kind and tick tell without a kind
   *   of its own (another kind would halve the queue's capacity with 13 or more bits per level).
   *   Whether a bucket is in tick order is recorded as timers join it (Bucket#tickOrder: the low
   *   31 bits of the last tick and a bit of disorder, in the 4 bytes the bucket object's
   *   alignment left free), a compare and a store in the bucket's line per arm. Reading the
   *   order when the bucket was reached read every timer of it, half a million handles at one
   *   TTL and a million timers, a whole extra pass over them: about a tenth of the one-TTL
   *   flow's CPU. Only a move of one tick keeps or hands out a sorted bucket; a longer one
   *   sweeps it first (moveBaseTo), so that an advance passing several ticks need not interleave
   *   the sorted bucket with the levels tick by tick to keep tick order. A steady flow moves one
   *   tick at a time; one that jumps moves each timer fewer times anyway.
   *   Sorted timers of the new tick are handed out from where they are if nothing is due before
   *   them, else appended to the due bucket; those a limit or a throwing handler leaves go to the
   *   front of the due bucket, so that between advances the sorted bucket holds no due timer.
   * - Due timers keep their order in a DueBucket, which leaves holes on cancel. An advance that
   *   finds due timers swaps the two due buckets: the one that collected them becomes the firing
   *   one, handed out from its front, and timers made due by its handlers go to the other, so they
   *   cannot fire in the same advance, even across a clear(). Timers left by a limit or a throwing
   *   handler are put back in front of them.
   * - When the base reaches a level-0 bucket and nothing is due yet, the due bucket takes that
   *   bucket's array in exchange for its own, empty one, instead of copying the timers and
   *   clearing the slots (a copy of a few references costs an arraycopy stub and a call into G1's
   *   barrier runtime); only the positions are rewritten, in handles the level-1 sweep has just
   *   left in cache. Exchanges move no array in or out of the pool: a level-0 bucket may thereby
   *   hold an array as large as a due bucket keeps until its next copy empties it, which the
   *   arrays of the two due buckets bound.
   */

  /**
   * The low-water mark of a level with no timers. No timer is ever filed at tick 0: every timer in
   * the wheel has a tick after the base, which is at least 0.
   */
  static final long NO_TICK = 0;

  /** How many timers a sweep reads the deadlines of before it re-files them. */
  private static final int SWEEP_CHUNK = 64;

  /**
   * The fewest timers a bucket keeps as the sorted bucket. A sorted bucket saves moving its timers
   * down the levels, which matters for the thousands of a bucket that one TTL fills; a handful
   * moves in a run or two, and small buckets thereby move down the levels as the design text, and
   * the walk-through above, have them.
   */
  static final int SORTED_MINIMUM = 64;

  /**
   * The most bits of a tick in which a level's buckets may differ for the bucket's record of its
   * order ({@link Bucket#tickOrder}), the low 31 bits of ticks compared by the sign of their
   * difference, to be true.
   */
  private static final int ORDERED_TICK_BITS = 29;

  /** The destination of a swept timer that is due: no bucket's number. */
  private static final int DUE_DESTINATION = -1;

  /** Number of the far bucket; numbers 0 and 1 are the due buckets. */
  static final int FAR_BUCKET = 2;
  /** Number of level 0's bucket of digit 0. */
  static final int FIRST_LEVEL_BUCKET = 3;

  /** The kind of the far bucket in positions; kinds 0 and 1 are the due buckets'. */
  private static final int FAR_KIND = 2;
  /** The kind of level 0's buckets in positions; level {@code L}'s is {@code L} more. */
  private static final int FIRST_LEVEL_KIND = 3;

  final int levelBits;
  private final int digitMask;
  /** How many low bits of a position number the slot; the bits above hold the kind. */
  private final int slotBits;
  /** The most timers the queue holds: at most {@code 2^slotBits}, as many as a bucket's slots. */
  private final int maxTimers;
  final Ticks ticks;
  final long startTime;
  /** {@code levelOfHighestBit[b]} is the level of a distance whose highest set bit is {@code b}. */
  private final byte[] levelOfHighestBit;

  /** The queue's clock, and its unsigned distance from the start time. */
  private long now;
  private long elapsed;
  /** The tick of the clock: {@code elapsed} rounded down to the resolution. */
  long base;
  /** {@code ticks.overflowBound(base)}, for deriving ticks from deadlines. */
  private long overflowBound;
  /**
   * The deadlines that have the base's tick, among those of ticks at or after it: those whose
   * unsigned difference from {@code dueDeadlinesFrom} is at most {@code dueDeadlinesSpan} (see
   * {@link #isDueAtBase}).
   */
  private long dueDeadlinesFrom;
  private long dueDeadlinesSpan;

  /** The levels; only the first {@link #levelCount} have been created. */
  final Level[] levels;
  int levelCount;
  /** Every level bucket and the far bucket, by number; null at the due buckets' numbers. */
  Bucket[] buckets;

  /** The slot arrays not in use, for the buckets that fill next. */
  final SlotPool pool;

  /** Timers beyond the last level. */
  final Bucket far;
  /** The far bucket's low-water mark and its witness, kept as a level keeps its own. */
  final LowWaterMark farMark = new LowWaterMark();

  /** The two due buckets, by number. */
  private final DueBucket[] dueBuckets;
  /** Due timers that no advance has taken yet, in the order they became due. */
  DueBucket due;
  /** Due timers taken by the running advance and not handed out yet: its firing. */
  DueBucket firing;
  /**
   * The sorted bucket last taken, a level's ({@link Level#sorted}), or {@code null} before the
   * first: it holds timers, all in the base's group of its level, only until the base leaves that
   * group.
   */
  DueBucket sorted;
  /**
   * Whether the sorted bucket's first timers, those at or before the base, are handed out by the
   * running advance ahead of its firing bucket: set when the base steps to their tick with nothing
   * due, until they are handed out. Between advances no timer of the sorted bucket is due.
   */
  private boolean sortedDue;
  /** The slot of the sorted bucket before which its timers were read ahead (readSortedAhead). */
  private int sortedReadTo;
  int size;
  private boolean advancing;
  /**
   * Whether {@link #knownEarliest} is the earliest tick of the wheel and the far bucket: set by
   * {@link #earliestTick}, kept by filing (which can only lower it), dropped by taking a timer out
   * and by moving the base.
   */
  private boolean earliestKnown;
  private long knownEarliest;
  /**
   * The number of the bucket whose slot {@link #unclearedSlot} still holds a timer that a move
   * within the wheel took out of it, for {@link #settle} to empty; -1 if there is none.
   */
  private int unclearedBucket = -1;
  private int unclearedSlot;
  /**
   * The deadlines, then the ticks, of the chunk of timers a sweep is re-filing; or the deadlines of
   * the sorted bucket's timers read ahead of their hand-out.
   */
  private final long[] sweptTicks = new long[SWEEP_CHUNK];
  /** Where each timer of that chunk goes: a level bucket's number or {@link #DUE_DESTINATION}. */
  private final int[] sweptDestinations = new int[SWEEP_CHUNK];

  CascadeTimerQueue(TimerConfig config, int levelBits) {
    this(config, levelBits, maxTimers(levelBits));
  }

  /**
   * Creates a queue that holds at most {@code maxTimers} timers, a power of two no more than
   * {@link #maxTimers(int)}: for tests of a full queue.
   */
  CascadeTimerQueue(TimerConfig config, int levelBits, int maxTimers) {
    this.levelBits = levelBits;
    this.digitMask = (1 << levelBits) - 1;
    this.ticks = new Ticks(config.resolution());
    this.startTime = config.startTime();
    this.now = config.startTime();
    this.levelOfHighestBit = new byte[Long.SIZE];
    for (int bit = 0; bit < Long.SIZE; bit++) {
      levelOfHighestBit[bit] = (byte) (bit / levelBits);
    }
    this.levels = new Level[(Long.SIZE + levelBits - 1) / levelBits];
    this.maxTimers = maxTimers;
    this.slotBits = Integer.numberOfTrailingZeros(maxTimers(levelBits));
    this.pool = new SlotPool(this, maxTimers);
    this.far = new Bucket(FAR_BUCKET, FAR_KIND << slotBits, pool);
    this.dueBuckets = new DueBucket[] {
        new DueBucket(0, 0, pool, SlotPool.KEPT_CAPACITY),
        new DueBucket(1, 1 << slotBits, pool, SlotPool.KEPT_CAPACITY)};
    this.due = dueBuckets[0];
    this.firing = dueBuckets[1];
    this.buckets = new Bucket[FIRST_LEVEL_BUCKET];
    this.buckets[FAR_BUCKET] = far;
    baseMoved();
  }

  /**
   * The most timers a queue of {@code levelBits} holds: the slots a position can name besides the
   * kind of bucket, {@code 2^27} (134,217,728) with 8 bits per level.
   */
  static int maxTimers(int levelBits) {
    int levels = (Long.SIZE + levelBits - 1) / levelBits;
    return 1 << (Integer.numberOfLeadingZeros(FIRST_LEVEL_KIND + levels - 1) - 1);
  }

  @Override
  public String strategy() {
    return CascadeTimerQueueProvider.NAME;
  }

  @Override
  public long now() {
    return now;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The cascade picks, among the ticks that start inside the range, the one with the most
   * trailing zero digits in base 2<sup>bits</sup>, the earliest such tick if there are several, and
   * reports the tick's start as the deadline: the timer fires exactly at it. A timer on a multiple
   * of 2<sup>bits&middot;j</sup> is due the moment the base enters its level-{@code j} group, so it
   * lands in the highest level it can and is not re-filed into the {@code j} levels below it
   * (unless the clock stops within 2<sup>bits&middot;j</sup> ticks of it while it waits above). If
   * no tick starts inside the range, the timer gets the tick after it, as a timer at {@code latest}
   * would, and deadline {@code latest}. If the whole range is due, so is the timer, with deadline
   * {@code latest}. A {@code latest} more than {@code Long.MAX_VALUE} ahead ends the range at
   * {@code now() + Long.MAX_VALUE}.
   */
  @Override
  public TimerHandle<T> scheduleWithin(long earliest, long latest, T payload) {
    Objects.requireNonNull(payload, "payload");
    TimerQueueChecks.checkRange(earliest, latest);
    settle();
    long earliestDistance = earliest - now;
    long latestDistance = latest - now;
    if (latestDistance < earliestDistance) {
      // latest lies more than Long.MAX_VALUE ahead and reads as past: the range ends at that bound.
      latestDistance = Long.MAX_VALUE;
    }
    if (latestDistance <= 0) {
      return schedule(latest, payload);
    }
    long latestKey = keyOf(latestDistance);
    long firstTick = earliestDistance <= 0 ? base + 1 : ticks.ceil(keyOf(earliestDistance));
    long lastStartingTick = ticks.floor(latestKey);
    long tick;
    long chosenKey;
    if (Long.compareUnsigned(firstTick, lastStartingTick) <= 0) {
      tick = roundestTickBetween(firstTick, lastStartingTick);
      chosenKey = ticks.start(tick);
    } else {
      // The range lies inside one tick; firstTick is the one after it.
      tick = firstTick;
      chosenKey = latestKey;
    }
    CascadeTimer<T> timer = newTimer(payload);
    countArmed();
    // The deadline's key is chosenKey, whose tick (Ticks.tickOf) is the tick chosen.
    timer.setDeadline(now + (chosenKey - elapsed));
    file(timer, tick);
    return timer;
  }

  /**
   * The earliest tick in {@code [first, last]} (unsigned, {@code 1 <= first <= last}) among those
   * with the most trailing zero base-2<sup>bits</sup> digits.
   */
  private long roundestTickBetween(long first, long last) {
    // Above the highest bit in which first - 1 and last differ, every tick in the range agrees;
    // clearing last's bits below it gives the tick in the range with the most trailing zero bits.
    int highestDifferentBit = 63 - Long.numberOfLeadingZeros((first - 1) ^ last);
    int zeroDigits = highestDifferentBit / levelBits;
    long unitMask = (1L << (zeroDigits * levelBits)) - 1;
    return ((first - 1) | unitMask) + 1;
  }

  @Override
  public int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit) {
    TimerQueueChecks.checkAdvance(onExpired, limit, advancing);
    settle();
    long step = now - this.now;
    if (step > 0) {
      this.now = now;
      this.elapsed += step;
    }
    long target = ticks.floor(elapsed);
    if (target != base) {
      moveBaseTo(target);
    }
    if (due.isEmpty() && !sortedDue) {
      return 0;
    }
    // Every due timer is firing, not just `limit` of them: a handler may cancel or re-arm timers
    // of the firing batch before their turn, and those must not use up the limit. Timers made due
    // by the handlers go to the other due bucket and wait for the next advance. When only the
    // sorted bucket's timers are due (a single TTL, every advance) both due buckets are empty, and
    // they do not trade places: a trade stores two references in the queue, an old object, and
    // G1's write barrier fences the first, which waits for the loads before it, such as the sorted
    // bucket's read-ahead that moving the base has just started (29% of a single TTL's samples).
    if (!due.isEmpty()) {
      DueBucket batch = due;
      due = firing;
      firing = batch;
    }
    advancing = true;
    int fired = 0;
    try {
      while (fired < limit) {
        CascadeTimer<T> timer = timerOf(nextFiring());
        if (timer == null) {
          break;
        }
        timer.position = CascadeTimer.NO_POSITION;
        size--;
        fired++;
        onExpired.accept(timer);
      }
      return fired;
    } finally {
      advancing = false;
      if (sortedDue) {
        // The limit was reached, or a handler threw, among the sorted bucket's due timers (or
        // right after them): those left come first in line for the next advance, then the batch,
        // then the timers the handlers made due.
        sortedDue = false;
        firing.takeAllLast(due);
        takeSortedDueInto(due);
        due.takeAllLast(firing);
        due.compactIfSparse();
      } else if (!firing.isEmpty()) {
        // The limit was reached or a handler threw: the timers not reached stay due, first in
        // line for the next advance, before those the handlers made due.
        firing.takeAllLast(due);
        DueBucket leftover = firing;
        firing = due;
        due = leftover;
        due.compactIfSparse();
      }
    }
  }

  /**
   * Takes the next timer the running advance hands out, or returns {@code null} if there is none:
   * first the sorted bucket's timers of the new base's tick, from where they are, as long as
   * {@link #sortedDue} (nothing was due before them, and the firing bucket's timers of the same
   * tick were armed after them), then the firing bucket's. One source for one loop, so that the
   * handler has one call site in advance, where the JIT compiles it in.
   */
  private CascadeTimer<?> nextFiring() {
    if (sortedDue) {
      CascadeTimer<?> timer = takeSortedDue();
      if (timer != null) {
        return timer;
      }
      sortedDue = false;
    }
    return firing.pollFirst();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Exact to the resolution: the distance to the earliest timer's deadline rounded up to a tick,
   * capped at {@code Long.MAX_VALUE - 1}. Costs a look at each level's low-water mark, and a bucket
   * scan for a level whose earliest timer has been cancelled or cascaded away since it was last
   * found (see the class description).
   */
  @Override
  public long nextExpiryDelay() {
    settle();
    if (!due.isEmpty() || !firing.isEmpty() || sortedHasDue()) {
      return 0;
    }
    long earliest = earliestTick();
    if (earliest == NO_TICK) {
      return Long.MAX_VALUE;
    }
    long delay = ticks.start(earliest) - elapsed;
    return delay < 0 || delay == Long.MAX_VALUE ? Long.MAX_VALUE - 1 : delay;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public void clear() {
    settle();
    earliestKnown = false;
    for (int level = 0; level < levelCount; level++) {
      Level wheelLevel = levels[level];
      long[] occupied = wheelLevel.occupied;
      for (int word = 0; word < occupied.length; word++) {
        for (long bits = occupied[word]; bits != 0; bits &= bits - 1) {
          release(wheelLevel.buckets[(word << 6) + Long.numberOfTrailingZeros(bits)]);
        }
      }
      Arrays.fill(occupied, 0);
      wheelLevel.reset();
    }
    release(far);
    farMark.reset();
    if (sorted != null) {
      release(sorted);
    }
    sortedDue = false;
    release(due);
    release(firing);
    size = 0;
  }

  @Override
  public int drain(Consumer<? super TimerHandle<T>> sink) {
    Objects.requireNonNull(sink, "sink");
    TimerQueueChecks.checkNotInHandler(advancing, "drain");
    settle();
    earliestKnown = false;
    int drained = 0;
    for (CascadeTimer<T> timer; (timer = timerOf(due.pollFirst())) != null; drained++) {
      hand(timer, sink);
    }
    if (sorted != null) {
      for (CascadeTimer<T> timer; (timer = timerOf(sorted.pollFirst())) != null; drained++) {
        hand(timer, sink);
      }
    }
    for (int level = 0; level < levelCount; level++) {
      Level wheelLevel = levels[level];
      for (int digit = wheelLevel.nextMaybeOccupied(0); digit >= 0;
          digit = wheelLevel.nextMaybeOccupied(0)) {
        drained += drainBucket(wheelLevel.buckets[digit], sink);
        wheelLevel.markEmpty(digit);
      }
    }
    return drained + drainBucket(far, sink);
  }

  @Override
  public void forEach(Consumer<? super TimerHandle<T>> action) {
    Objects.requireNonNull(action, "action");
    settle();
    visit(due, action);
    visit(firing, action);
    if (sorted != null) {
      visit(sorted, action);
    }
    for (int level = 0; level < levelCount; level++) {
      Level wheelLevel = levels[level];
      long[] occupied = wheelLevel.occupied;
      for (int word = 0; word < occupied.length; word++) {
        for (long bits = occupied[word]; bits != 0; bits &= bits - 1) {
          visit(wheelLevel.buckets[(word << 6) + Long.numberOfTrailingZeros(bits)], action);
        }
      }
    }
    visit(far, action);
  }

  @Override
  public String toString() {
    return "CascadeTimerQueue{now=" + now + ", size=" + size + ", levels=" + levelCount + "}";
  }

  // ------------------------------------------------------------------ positions

  /** Returns the handle as this queue's timer, or null if another queue created it. */
  @Override
  protected CascadeTimer<T> ownedOrNull(TimerHandle<T> timer) {
    return timer instanceof CascadeTimer<T> owned && owned.queue == this ? owned : null;
  }

  @Override
  protected CascadeTimer<T> newTimer(T payload) {
    return new CascadeTimer<>(this, payload);
  }

  /** Takes a pending timer out of its bucket and slot; it is then not pending. */
  @Override
  protected void remove(CascadeTimer<T> timer) {
    settle();
    takeOut(timer);
    timer.position = CascadeTimer.NO_POSITION;
    size--;
  }

  /** Takes a pending timer out of the bucket and slot its position names. */
  private void takeOut(CascadeTimer<?> timer) {
    earliestKnown = false;
    int position = timer.position;
    int kind = kindOf(position);
    int slot = slotOf(position);
    if (kind >= FAR_KIND) {
      long tick = tickOf(timer);
      if (!tookOutOfSorted(kind, slot, tick)) {
        wheelBucketOf(kind, tick).remove(slot);
      }
    } else {
      DueBucket dueBucket = dueBuckets[kind];
      dueBucket.remove(slot);
      if (dueBucket == due) {
        // The firing bucket is read from its front while it fires, so only this one compacts.
        dueBucket.compactIfSparse();
      }
    }
  }

  /**
   * Takes a timer out of its level's sorted bucket, if its position's {@code kind} and its {@code
   * tick} say it is there: a tick in the base's own group of the level, which no other bucket of
   * the level holds. Returns whether it did.
   */
  private boolean tookOutOfSorted(int kind, int slot, long tick) {
    int level = kind - FIRST_LEVEL_KIND;
    if (level <= 0 || ((tick ^ base) >>> (level * levelBits)) != 0) {
      return false;
    }
    DueBucket sortedBucket = levels[level].sorted;
    sortedBucket.remove(slot);
    sortedBucket.compactIfSparse();
    return true;
  }

  /**
   * The bucket of a timer in the wheel or the far bucket, whose position has {@code kind} and
   * whose deadline has {@code tick}, unless it is in a sorted bucket: the far bucket, or the bucket
   * of the tick's digit in the level of the kind.
   */
  private Bucket wheelBucketOf(int kind, long tick) {
    if (kind == FAR_KIND) {
      return far;
    }
    int level = kind - FIRST_LEVEL_KIND;
    return buckets[FIRST_LEVEL_BUCKET + (level << levelBits) + digit(tick, level)];
  }

  /** The kind of bucket a position names: a due bucket's number, the far bucket's, or a level's. */
  int kindOf(int position) {
    return position >>> slotBits;
  }

  /** The slot a position names. */
  int slotOf(int position) {
    return position & ((1 << slotBits) - 1);
  }

  /**
   * Where a timer is, for tests and the invariants: the index of its level, or {@link
   * CascadeTimer#FAR}, {@link CascadeTimer#DUE}, {@link CascadeTimer#NOT_PENDING}.
   */
  int where(CascadeTimer<?> timer) {
    int position = timer.position;
    if (position < 0) {
      return CascadeTimer.NOT_PENDING;
    }
    int kind = kindOf(position);
    if (kind < FAR_KIND) {
      return CascadeTimer.DUE;
    }
    return kind == FAR_KIND ? CascadeTimer.FAR : kind - FIRST_LEVEL_KIND;
  }

  /** The level of a level bucket's number; negative for the far and due buckets. */
  private int levelOfBucket(int bucket) {
    return (bucket - FIRST_LEVEL_BUCKET) >> levelBits;
  }

  /** The tick a timer in the wheel or the far bucket is filed at, from its deadline. */
  long tickOf(CascadeTimer<?> timer) {
    return tickAt(timer.deadline());
  }

  /**
   * Whether a timer in the wheel whose tick is at or after the base has the base's tick: what
   * {@code tickOf(timer) == base} says, from its deadline alone. The sorted bucket's timers are
   * handed out by this test, which rounds nothing: deriving each one's tick instead took about 0.7
   * of the 16 nanoseconds per fired timer of a single TTL at a million timers.
   */
  private boolean isDueAtBase(CascadeTimer<?> timer) {
    return Long.compareUnsigned(timer.deadline() - dueDeadlinesFrom, dueDeadlinesSpan) <= 0;
  }

  /** Derives what filing and handing out read of the base from it, after it moved. */
  private void baseMoved() {
    overflowBound = ticks.overflowBound(base);
    dueDeadlinesFrom = startTime + ticks.dueKeysFrom(base, overflowBound);
    dueDeadlinesSpan = ticks.dueKeySpan(base);
  }

  /** The tick a timer with {@code deadline} is filed at in the wheel or the far bucket. */
  private long tickAt(long deadline) {
    return ticks.tickOf(deadline - startTime, overflowBound);
  }

  @SuppressWarnings("unchecked")
  private CascadeTimer<T> timerOf(CascadeTimer<?> timer) {
    return (CascadeTimer<T>) timer;
  }

  // ------------------------------------------------------------------ filing

  /**
   * The unsigned distance from the start time of a deadline {@code distance > 0} ahead of the
   * clock, saturating at the end of the clock's range.
   */
  private long keyOf(long distance) {
    long key = elapsed + distance;
    return Long.compareUnsigned(key, elapsed) < 0 ? -1L : key;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Costs what a cancel and an arm cost: {@code O(1)} amortized.
   */
  @Override
  public boolean reschedule(TimerHandle<T> handle, long deadline) {
    // What AbstractTimerQueue.reschedule does through own, ownedOrNull, isPending and remove, in
    // one method. A handler re-arming the timer it is handed calls this from advance's firing
    // loop, where the JIT compiles it in: with a million timers re-armed at 16 TTLs, or at random
    // delays, this measured 13 to 20% less CPU per fired timer than the inherited chain.
    Objects.requireNonNull(handle, "timer");
    if (!(handle instanceof CascadeTimer<T> timer) || timer.queue != this) {
      throw TimerQueueChecks.foreignHandle(handle);
    }
    int position = timer.position;
    if (position < 0) {
      arm(timer, deadline);
      return false;
    }
    if (!moveWithinWheel(timer, position, deadline)) {
      remove(timer);
      arm(timer, deadline);
    }
    return true;
  }

  /**
   * Moves a pending timer at {@code position} from the wheel or the far bucket to the wheel or the
   * far bucket at {@code deadline}, if that is after the clock and its new bucket has room after
   * its end; returns whether it did. Apart from reschedule, so that reschedule stays small enough
   * for the JIT to compile it into a handler that re-arms a timer that has fired.
   */
  private boolean moveWithinWheel(CascadeTimer<?> timer, int position, long deadline) {
    long distance = deadline - now;
    int kind = kindOf(position);
    if (distance <= 0 || kind < FAR_KIND) {
      return false;
    }
    // The timer is filed in its new bucket before its old slot is emptied. Filing stores a
    // reference into an old array, whose G1 write barrier fences: it waits for the stores before
    // it, and the old slot, of a timer picked at random from many, is a cache miss. Only a new
    // bucket with room after its end is filed first, as making room may compact it and move the
    // timer out of its old slot.
    long tick = ticks.ceil(keyOf(distance));
    int level = levelOf(tick);
    Level toLevel = null;
    int digit = 0;
    Bucket to = far;
    if (level < levelCount) {
      toLevel = levels[level];
      digit = digit(tick, level);
      to = toLevel.buckets[digit];
    }
    if (to.end == to.slots.length) {
      return false;
    }
    // The old bucket follows from the deadline the timer is filed by, so it is kept; it is found
    // after the new one is filed, so that the store comes as early as it can.
    long oldDeadline = timer.deadline();
    timer.setDeadline(deadline);
    fileIn(to, toLevel, digit, timer, tick);
    // The timer leaves its old tick, which may have been the earliest: the earliest is forgotten,
    // not lowered to the new tick.
    earliestKnown = false;
    // After the fence: the slot the last move left is emptied now, and this one's only after the
    // next operation's fence (see settle), so that no fence waits for an old slot's line.
    settle();
    int slot = slotOf(position);
    long oldTick = tickAt(oldDeadline);
    if (!tookOutOfSorted(kind, slot, oldTick)) {
      Bucket from = wheelBucketOf(kind, oldTick);
      if (from.takeOutLeavingSlot(slot)) {
        unclearedBucket = from.number;
        unclearedSlot = slot;
      }
    }
    return true;
  }

  /**
   * Empties the slot that the last move within the wheel took its timer out of, if it left that
   * for later. Every other operation calls this before it reads or rearranges a bucket's slots:
   * the slot's bucket already does not count the timer, and nothing else empties the slot.
   */
  void settle() {
    int bucket = unclearedBucket;
    if (bucket >= 0) {
      buckets[bucket].slots[unclearedSlot] = null;
      unclearedBucket = -1;
    }
  }

  /**
   * Counts a timer that is being armed, or refuses it if the queue holds as many as its positions
   * can name ({@link #maxTimers}).
   */
  private void countArmed() {
    if (size == maxTimers) {
      throw new IllegalStateException("a cascade queue with " + levelBits
          + " bits per level holds at most " + maxTimers + " timers");
    }
    size++;
  }

  /** Arms a timer that is in no bucket: into the due bucket if its deadline is due, else filed. */
  @Override
  protected void arm(CascadeTimer<T> timer, long deadline) {
    settle();
    countArmed();
    timer.setDeadline(deadline);
    long distance = deadline - now;
    if (distance <= 0) {
      due.add(timer);
    } else {
      // A deadline after the clock rounds up to a tick after the base.
      file(timer, ticks.ceil(keyOf(distance)));
    }
  }

  /** Files a timer whose tick is after the base into its level's bucket, or the far bucket. */
  private void file(CascadeTimer<?> timer, long tick) {
    fileAt(levelOf(tick), timer, tick);
  }

  /** The level of a tick after the base, by its distance: possibly one not created yet. */
  private int levelOf(long tick) {
    return levelOfHighestBit[63 - Long.numberOfLeadingZeros(tick - base)];
  }

  /** Files a timer whose tick is after the base in {@code level}, or the far bucket. */
  private void fileAt(int level, CascadeTimer<?> timer, long tick) {
    if (earliestKnown
        && (knownEarliest == NO_TICK || Long.compareUnsigned(tick, knownEarliest) < 0)) {
      knownEarliest = tick;
    }
    Level toLevel = null;
    int digit = 0;
    Bucket to = far;
    if (level < levelCount) {
      toLevel = levels[level];
      digit = digit(tick, level);
      to = toLevel.buckets[digit];
    }
    fileIn(to, toLevel, digit, timer, tick);
  }

  /**
   * Files a timer in {@code to}, the bucket of {@code digit} in {@code toLevel}, and lowers that
   * level's mark; with {@code toLevel} null, {@code to} is the far bucket, whose mark it lowers.
   * One add and one mark for both kinds of bucket, not one each: each add and each mark's witness
   * compiles to a store with G1's write barrier, and with two of each the compiled arm outgrew the
   * code size up to which HotSpot's C2 inlines an already compiled method into its caller.
   */
  private void fileIn(Bucket to, Level toLevel, int digit, CascadeTimer<?> timer, long tick) {
    to.add(timer);
    to.addedTick(tick);
    LowWaterMark mark = farMark;
    if (toLevel != null) {
      toLevel.markOccupied(digit);
      mark = toLevel;
    }
    mark.lower(tick, timer);
  }

  /** Files a timer taken out of a bucket again, relative to the current base. */
  private void refile(CascadeTimer<?> timer) {
    long tick = tickOf(timer);
    if (tick == base) {
      due.add(timer);
    } else {
      file(timer, tick);
    }
  }

  private int digit(long tick, int level) {
    return (int) (tick >>> (level * levelBits)) & digitMask;
  }

  // ------------------------------------------------------------------ moving the base

  /**
   * Moves the base to {@code target} (after it), moving every timer whose tick is at or before it
   * to the due bucket. The base jumps from one occupied tick to the next, never through the empty
   * ticks between them.
   */
  private void moveBaseTo(long target) {
    if (target - base == 1) {
      // Nothing lies between the base and the next tick: no search for the earliest is needed.
      jumpBase(target, true);
      return;
    }
    if (sorted != null && !sorted.isEmpty()) {
      // A move past several ticks would have to interleave the sorted bucket's timers with the
      // lower levels' tick by tick to hand them out in tick order; it files them there instead,
      // as the sweep would have when the base entered their group. A clock that moves by more
      // than a tick at a time gains nothing from a sorted bucket anyway: its sweeps move each
      // timer once per advance it lies in, not once per level.
      earliestKnown = false;
      sweep(sorted, sorted.first);
      sorted.emptied();
    }
    while (true) {
      long earliest = earliestTick();
      if (earliest == NO_TICK || Long.compareUnsigned(earliest, target) >= 0) {
        jumpBase(target, false);
        return;
      }
      jumpBase(earliest, false);
    }
  }

  /**
   * Moves the base to {@code next}, which no timer precedes: empties, highest level first, the far
   * bucket if {@code next} has left the last level's group, then in each level whose group {@code
   * next} has entered the bucket of {@code next}'s digit. Every other bucket of such a level holds
   * a later group, which the move brings no nearer than one group away. A move of {@code oneTick}
   * keeps the first such bucket in tick order as the sorted bucket, and makes the sorted bucket's
   * timers of {@code next} due, ahead of level 0's.
   */
  private void jumpBase(long next, boolean oneTick) {
    int changedLevel = levelOfHighestBit[63 - Long.numberOfLeadingZeros(base ^ next)];
    int highestToEmpty = Math.min(changedLevel, levelCount - 1);
    earliestKnown = false;
    base = next;
    baseMoved();
    if (changedLevel >= levelCount && !far.isEmpty()) {
      pullInFar();
    }
    for (int level = highestToEmpty; level > 0; level--) {
      emptyBucket(level, digit(next, level), oneTick);
    }
    if (oneTick && sorted != null && !sorted.isEmpty()) {
      readSortedAhead(sorted);
      if (due.isEmpty()) {
        sortedDue = sortedHoldsBase();
      } else {
        // Behind the timers already due, which have earlier ticks.
        takeSortedDueInto(due);
      }
    }
    if (highestToEmpty >= 0) {
      emptyLevelZeroBucket(digit(next, 0));
    }
  }

  /**
   * Reads the deadlines of the sorted bucket's next {@value #SWEEP_CHUNK} timers when fewer than
   * half as many slots are read ahead of its first, as a sweep reads a chunk: with nothing between
   * the loads, their cache misses overlap. Handing the timers out takes them one at a time, each
   * handler's re-arm fencing on G1's write barrier, which waits for the loads before it: without
   * this, a sorted bucket with a timer or two per tick cost a whole miss per timer, and the flow
   * of sixteen TTLs, which makes a few such buckets, a tenth more per fired timer.
   */
  private void readSortedAhead(DueBucket sorted) {
    int from = Math.max(sortedReadTo, sorted.first);
    if (from - sorted.first >= SWEEP_CHUNK / 2) {
      return;
    }
    int to = Math.min(sorted.end, from + SWEEP_CHUNK);
    CascadeTimer<?>[] slots = sorted.slots;
    long[] deadlines = this.sweptTicks;
    for (int slot = from; slot < to; slot++) {
      CascadeTimer<?> timer = slots[slot];
      if (timer != null) {
        deadlines[slot - from] = timer.deadline();
      }
    }
    sortedReadTo = to;
  }

  /** Whether the sorted bucket's first timers have the base's tick. */
  private boolean sortedHoldsBase() {
    CascadeTimer<?> first = sorted.peekFirst();
    return first != null && isDueAtBase(first);
  }

  /**
   * Takes the sorted bucket's first timer out if it is due, at the base's tick, or returns null.
   * Between advances no timer there is due, and an advance hands them out one tick at a time, so
   * every timer it holds has a tick at or after the base.
   */
  private CascadeTimer<?> takeSortedDue() {
    DueBucket sorted = this.sorted;
    CascadeTimer<?> first = sorted.peekFirst();
    if (first == null || !isDueAtBase(first)) {
      return null;
    }
    sorted.takeFirst();
    return first;
  }

  /** Moves the sorted bucket's due timers, in order, after the last of {@code into}. */
  private void takeSortedDueInto(DueBucket into) {
    for (CascadeTimer<?> timer; (timer = takeSortedDue()) != null; ) {
      into.add(timer);
    }
  }

  /** Whether the running advance has sorted timers left to hand out ahead of its firing bucket. */
  private boolean sortedHasDue() {
    return sortedDue && sortedHoldsBase();
  }

  /**
   * Re-files every timer of a bucket above level 0 that the base's group has reached, unless a move
   * of {@code oneTick} keeps it as the sorted bucket (see {@link #keepsSorted}).
   */
  private void emptyBucket(int level, int digit, boolean oneTick) {
    Level wheelLevel = levels[level];
    if (!wheelLevel.mayBeOccupied(digit)) {
      return;
    }
    wheelLevel.markEmpty(digit);
    Bucket bucket = wheelLevel.buckets[digit];
    if (oneTick && keepsSorted(wheelLevel, bucket, level)) {
      return;
    }
    sweep(bucket, 0);
    if (bucket.isEmpty()) {
      bucket.emptied(0);
    }
  }

  /**
   * Makes a bucket of {@code level} that the base has just entered the group of, by one tick, the
   * sorted bucket if no sorted bucket holds timers and its timers, {@value #SORTED_MINIMUM} or
   * more, are in tick order; returns whether it did. The bucket's array passes to the level's
   * sorted bucket with the timers in their slots, which thereby keep their positions, and nothing
   * is written in them.
   *
   * <p>The order is the bucket's record of it ({@link Bucket#inTickOrder}), which reads no timer;
   * only the last is read, to tell a timer a whole turn of the level ahead. The base steps one tick
   * at a time through it from then on (a longer move sweeps it, see moveBaseTo), and each step
   * hands out its first timers, those of the new base, from where they are. Its ticks all lie in
   * the base's group of the level, which no bucket of the level holds otherwise: a timer's kind and
   * tick tell that it is in the sorted bucket.
   */
  private boolean keepsSorted(Level wheelLevel, Bucket bucket, int level) {
    if (bucket.live < SORTED_MINIMUM || sorted != null && !sorted.isEmpty()
        || !tracksOrder(level) || !bucket.inTickOrder()) {
      return false;
    }
    CascadeTimer<?>[] slots = bucket.slots;
    // The last slot before the end holds a timer, the latest.
    if (((tickOf(slots[bucket.end - 1]) ^ base) >>> (level * levelBits)) != 0) {
      // A timer a whole turn of the level ahead: the bucket is swept to file it there again.
      return false;
    }
    DueBucket kept = wheelLevel.sorted;
    bucket.restart(kept.takeOver(slots, bucket.end, bucket.live));
    kept.compactIfSparse();
    sorted = kept;
    sortedReadTo = 0;
    return true;
  }

  /**
   * Whether the buckets of {@code level} keep their order ({@link Bucket#tickOrder}) truly: their
   * ticks lie in one group of the level, 2<sup>bits&middot;level</sup> ticks, or a whole turn of
   * the level, 2<sup>bits&middot;(level + 1)</sup> ticks, after it (see {@link #sweep}), so within
   * 2<sup>30</sup> of each other if {@code bits * (level + 1) <= 29}. With 8 bits per level that
   * is levels 1 and 2, whose groups span up to 65,536 ticks; the buckets of higher levels are
   * swept as the design text has them.
   */
  private boolean tracksOrder(int level) {
    return levelBits * (level + 1) <= ORDERED_TICK_BITS;
  }

  /**
   * Re-files every timer of a bucket, from {@code from} on: a bucket above level 0 that the base's
   * group has reached, or the sorted bucket. A timer 2<sup>bits</sup> groups ahead, which a higher
   * level may just have filed in the bucket swept, goes back to it: it is written to a slot
   * already read, so the sweep never overwrites a timer.
   *
   * <p>The timers move in runs: consecutive slots whose timers go to the same bucket are copied
   * there at once ({@link Bucket#addRun}). A bucket filled in the order of its deadlines (one TTL)
   * moves in runs of its whole share of each bucket below.
   */
  private void sweep(SlotBucket bucket, int from) {
    CascadeTimer<?>[] slots = bucket.slots;
    int end = bucket.end;
    bucket.end = 0;
    bucket.live = 0;
    long[] sweptTicks = this.sweptTicks;
    int[] destinations = this.sweptDestinations;
    for (int first = from; first < end; first += SWEEP_CHUNK) {
      int last = Math.min(end, first + SWEEP_CHUNK);
      // Reading every deadline of the chunk first, and nothing else, lets the timers' cache misses
      // overlap: the fewer instructions per timer, the more misses the CPU has in flight. The
      // later passes find the deadlines in the chunk's array and the timers in cache.
      for (int slot = first; slot < last; slot++) {
        CascadeTimer<?> timer = slots[slot];
        if (timer != null) {
          sweptTicks[slot - first] = timer.deadline();
        }
      }
      for (int slot = first; slot < last; slot++) {
        if (slots[slot] != null) {
          long tick = tickAt(sweptTicks[slot - first]);
          sweptTicks[slot - first] = tick;
          destinations[slot - first] = destinationOf(tick);
        }
      }
      int slot = first;
      while (slot < last) {
        CascadeTimer<?> timer = slots[slot];
        if (timer == null) {
          slot++;
          continue;
        }
        int destination = destinations[slot - first];
        long earliest = sweptTicks[slot - first];
        CascadeTimer<?> earliestTimer = timer;
        // The run's last tick, and whether its ticks came in order, for the target's record of
        // its order (Bucket#tickOrder).
        long latest = earliest;
        boolean inOrder = true;
        int runEnd = slot + 1;
        while (runEnd < last && slots[runEnd] != null
            && destinations[runEnd - first] == destination) {
          long tick = sweptTicks[runEnd - first];
          if (Long.compareUnsigned(tick, earliest) < 0) {
            earliest = tick;
            earliestTimer = slots[runEnd];
          }
          inOrder &= Long.compareUnsigned(tick, latest) >= 0;
          latest = tick;
          runEnd++;
        }
        // A single timer is stored as such: a copy costs more than one barrier.
        boolean single = runEnd - slot == 1;
        if (destination == DUE_DESTINATION) {
          if (single) {
            due.add(timer);
          } else {
            due.addRun(slots, slot, runEnd - slot);
          }
        } else {
          Bucket target = buckets[destination];
          if (single) {
            target.add(timer);
            target.addedTick(earliest);
          } else {
            target.addRun(slots, slot, runEnd - slot);
            target.addedRun(runEnd - slot, sweptTicks[slot - first], latest, inOrder);
          }
          // Moving the base has dropped the earliest tick, so only the level's mark is lowered.
          int levelBucket = destination - FIRST_LEVEL_BUCKET;
          Level targetLevel = levels[levelBucket >> levelBits];
          targetLevel.markOccupied(levelBucket & digitMask);
          targetLevel.lower(earliest, earliestTimer);
        }
        // Clears the slots read, except those a run filed back into this bucket now holds.
        for (int read = Math.max(slot, bucket.end); read < runEnd; read++) {
          slots[read] = null;
        }
        slot = runEnd;
      }
    }
  }

  /**
   * The number of the level bucket a timer swept out of a level goes to, or {@link
   * #DUE_DESTINATION}: the tick is after the base or at it, and within the levels.
   */
  private int destinationOf(long tick) {
    if (tick == base) {
      return DUE_DESTINATION;
    }
    int level = levelOf(tick);
    return FIRST_LEVEL_BUCKET + (level << levelBits) + digit(tick, level);
  }

  /**
   * Makes due every timer of the level-0 bucket of the base: a level-0 bucket holds one tick. If
   * no timer is due yet and the due bucket has an array, the two exchange arrays, so the timers
   * are not copied.
   */
  private void emptyLevelZeroBucket(int digit) {
    Level levelZero = levels[0];
    if (!levelZero.mayBeOccupied(digit)) {
      return;
    }
    levelZero.markEmpty(digit);
    Bucket bucket = levelZero.buckets[digit];
    CascadeTimer<?>[] slots = bucket.slots;
    int end = bucket.end;
    if (due.isEmpty() && due.slots.length > 0) {
      // The usual case when the clock steps a tick at a time through steady traffic. The arrays
      // change hands but not sizes, so the pool sees nothing; a fresh due bucket has no array to
      // give, and gets one by a copy.
      bucket.restart(due.adopt(slots, end, bucket.live));
      return;
    }
    for (int slot = 0; slot < end; ) {
      int runEnd = slot;
      while (runEnd < end && slots[runEnd] != null) {
        runEnd++;
      }
      if (runEnd > slot) {
        due.addRun(slots, slot, runEnd - slot);
      }
      slot = runEnd + 1;
    }
    Arrays.fill(slots, 0, end, null);
    bucket.emptied(SlotPool.SMALL_CAPACITY);
  }

  /**
   * Sweeps the far bucket when the base has left the last level's group: creates the levels that
   * its timers now need, and files them all there (or in the due bucket).
   */
  private void pullInFar() {
    int needed = levelCount;
    CascadeTimer<?>[] slots = far.slots;
    int end = far.end;
    for (int slot = 0; slot < end; slot++) {
      CascadeTimer<?> timer = slots[slot];
      long distance = timer == null ? 0 : tickOf(timer) - base;
      if (distance != 0) {
        needed = Math.max(needed,
            levelOfHighestBit[63 - Long.numberOfLeadingZeros(distance)] + 1);
      }
    }
    if (levelCount < needed) {
      buckets = Arrays.copyOf(buckets, FIRST_LEVEL_BUCKET + (needed << levelBits));
      while (levelCount < needed) {
        int firstBucket = FIRST_LEVEL_BUCKET + (levelCount << levelBits);
        Level level = new Level(
            levelBits, firstBucket, (FIRST_LEVEL_KIND + levelCount) << slotBits, pool);
        System.arraycopy(level.buckets, 0, buckets, firstBucket, 1 << levelBits);
        levels[levelCount++] = level;
      }
    }
    farMark.reset();
    for (int slot = 0; slot < end; slot++) {
      CascadeTimer<?> timer = slots[slot];
      if (timer != null) {
        slots[slot] = null;
        refile(timer);
      }
    }
    far.emptied(0);
  }

  // ------------------------------------------------------------------ the earliest timer

  /**
   * Returns the earliest tick of any timer in the wheel or the far bucket, exactly, or {@link
   * #NO_TICK} if there is none. The smallest low-water mark is the answer if its witness confirms
   * it; otherwise that level's mark is recomputed and the search repeats, at most once per level.
   */
  private long earliestTick() {
    if (!earliestKnown) {
      knownEarliest = searchEarliestTick();
      earliestKnown = true;
    }
    return knownEarliest;
  }

  private long searchEarliestTick() {
    // The sorted bucket's first timer is its earliest, exactly.
    CascadeTimer<?> firstSorted = sorted == null ? null : sorted.peekFirst();
    long sortedTick = firstSorted == null ? NO_TICK : tickOf(firstSorted);
    while (true) {
      long earliest = NO_TICK;
      int holder = -1;
      for (int level = 0; level < levelCount; level++) {
        long mark = levels[level].lowWater;
        if (mark != NO_TICK && (earliest == NO_TICK || Long.compareUnsigned(mark, earliest) < 0)) {
          earliest = mark;
          holder = level;
        }
      }
      long farLowWater = farMark.lowWater;
      if (farLowWater != NO_TICK
          && (earliest == NO_TICK || Long.compareUnsigned(farLowWater, earliest) < 0)) {
        earliest = farLowWater;
        holder = levelCount;
      }
      if (sortedTick != NO_TICK
          && (earliest == NO_TICK || Long.compareUnsigned(sortedTick, earliest) <= 0)) {
        return sortedTick;
      }
      if (earliest == NO_TICK) {
        return NO_TICK;
      }
      if (holder == levelCount) {
        CascadeTimer<?> witness = farMark.witness;
        if (where(witness) == CascadeTimer.FAR && tickOf(witness) == earliest) {
          return earliest;
        }
        recomputeFarLowWater();
      } else {
        CascadeTimer<?> witness = levels[holder].witness;
        if (where(witness) == holder && tickOf(witness) == earliest) {
          return earliest;
        }
        recomputeLowWater(holder);
      }
    }
  }

  /**
   * Sets a level's low-water mark to its exact earliest tick: the earliest tick of its first
   * occupied bucket after the base's own group, found through the bitmap (clearing the bits of
   * buckets found empty). A level-0 bucket holds a single tick, so only higher buckets are scanned.
   */
  private void recomputeLowWater(int level) {
    Level wheelLevel = levels[level];
    int from = (digit(base, level) + 1) & digitMask;
    while (true) {
      int digit = wheelLevel.nextMaybeOccupied(from);
      if (digit < 0) {
        wheelLevel.reset();
        return;
      }
      Bucket bucket = wheelLevel.buckets[digit];
      if (bucket.isEmpty()) {
        wheelLevel.markEmpty(digit);
        continue;
      }
      // The last slot holds a timer: a bucket drops its trailing holes.
      CascadeTimer<?> earliest = bucket.slots[bucket.end - 1];
      long earliestTick = tickOf(earliest);
      if (level > 0) {
        for (int slot = 0; slot < bucket.end - 1; slot++) {
          CascadeTimer<?> timer = bucket.slots[slot];
          if (timer == null) {
            continue;
          }
          long tick = tickOf(timer);
          if (Long.compareUnsigned(tick, earliestTick) < 0) {
            earliest = timer;
            earliestTick = tick;
          }
        }
      }
      wheelLevel.lowWater = earliestTick;
      wheelLevel.witness = earliest;
      return;
    }
  }

  private void recomputeFarLowWater() {
    farMark.reset();
    for (int slot = 0; slot < far.end; slot++) {
      CascadeTimer<?> timer = far.slots[slot];
      if (timer != null) {
        farMark.lower(tickOf(timer), timer);
      }
    }
  }

  // ------------------------------------------------------------------ handing timers out

  private void hand(CascadeTimer<T> timer, Consumer<? super TimerHandle<T>> sink) {
    timer.position = CascadeTimer.NO_POSITION;
    size--;
    sink.accept(timer);
  }

  /** Hands out a bucket's timers from its last slot, each taken out before the sink sees it. */
  private int drainBucket(Bucket bucket, Consumer<? super TimerHandle<T>> sink) {
    int drained = 0;
    while (!bucket.isEmpty()) {
      int last = bucket.end - 1;
      CascadeTimer<T> timer = timerOf(bucket.slots[last]);
      bucket.remove(last);
      drained++;
      hand(timer, sink);
    }
    return drained;
  }

  private void release(Bucket bucket) {
    CascadeTimer<?>[] slots = bucket.slots;
    int end = bucket.end;
    for (int slot = 0; slot < end; slot++) {
      CascadeTimer<?> timer = slots[slot];
      if (timer != null) {
        timer.position = CascadeTimer.NO_POSITION;
        slots[slot] = null;
      }
    }
    bucket.emptied(0);
  }

  private void release(DueBucket bucket) {
    for (CascadeTimer<?> timer; (timer = bucket.pollFirst()) != null; ) {
      timer.position = CascadeTimer.NO_POSITION;
    }
  }

  private void visit(Bucket bucket, Consumer<? super TimerHandle<T>> action) {
    for (int slot = 0; slot < bucket.end; slot++) {
      CascadeTimer<?> timer = bucket.slots[slot];
      if (timer != null) {
        action.accept(timerOf(timer));
      }
    }
  }

  private void visit(DueBucket bucket, Consumer<? super TimerHandle<T>> action) {
    for (int slot = bucket.first; slot < bucket.end; slot++) {
      CascadeTimer<?> timer = bucket.slots[slot];
      if (timer != null) {
        action.accept(timerOf(timer));
      }
    }
  }
}
