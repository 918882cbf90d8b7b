package io.github.timerqueue.hitime;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.spi.AbstractTimerQueue;
import io.github.timerqueue.spi.TimerQueueChecks;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The {@code hitime} strategy: a hierarchical timeout manager whose 64 bins are the bits of a
 * {@code long}, after Craig Jacobson's
 * <a href="https://github.com/craig8196/hitime">hitime</a>. A timer waits in the bin of the
 * highest bit in which its deadline differs from now; as time passes, the high bits of the
 * deadline are stripped off one by one until nothing is left and the timer fires.
 *
 * <h2>Design</h2>
 * Time is counted in <em>ticks</em>: whole resolutions since the start time, as an unsigned {@code
 * long}. The clock's tick is {@code elapsed / resolution} (rounded down) and a timer's tick is
 * its deadline rounded <em>up</em> to a tick, so a timer can never fire early. A timer whose
 * deadline is at or before {@link #now()} is <em>due</em> at once; any other timer has a tick
 * above the clock's and waits in bin {@code highestOneBit(tick XOR nowTick)}. Each bin is a
 * first in, first out bucket of timers, and a 64-bit occupancy bitmap says which are non-empty.
 *
 * <p>When the clock moves from tick {@code last} to tick {@code now}, let {@code c} be the highest
 * bit in which they differ. Every bin below {@code c} is entirely due and becomes due whole,
 * without looking at its timers; every bin above {@code c} is unaffected; bin {@code c} alone is
 * re-examined, and each of its timers either is due or moves to a strictly lower bin. (The proof
 * is at {@code moveClockTo}.) The original bulk-expires only bin 0 and the bins below {@code
 * highestOneBit(now - last)} and re-examines the bins from there up to {@code c}; every timer in
 * those bins below {@code c} is due, so this implementation expires them in bulk as well.
 *
 * <p>The time until the next timer can fire is the time until the clock's bit of the lowest
 * non-empty bin next flips, found with one {@link Long#numberOfTrailingZeros} of the bitmap.
 *
 * <h2>A worked example</h2>
 * Resolution 1, start time 0, one timer with deadline 13:
 *
 * <pre>
 *  call              now (binary)   13 XOR now   bin   nextExpiryDelay()
 *  schedule(13)      0000           1101         3     8  (bit 3 of now flips at 8)
 *  advance(8)        1000           0101         2     4  (bin 3 re-examined; 13 is not due)
 *  advance(12)       1100           0001         0     1  (bin 2 re-examined)
 *  advance(13)       1101           -            -     fires: bin 0 re-examined, 13 is due
 * </pre>
 *
 * Each step strips the top bit from what is left of the deadline: 1101, 0101, 0001. Had the caller
 * gone from 0 straight to {@code advance(20)} (binary 10100, highest changed bit 4), bin 3 would
 * have become due whole: a timer in bin 3 agrees with now above bit 3, so its deadline is below 16
 * and therefore below 20.
 *
 * <h2>Ordering</h2>
 * An {@code advance} hands out first the due timers left over by an earlier advance (by its {@code
 * limit} or by a throwing handler), then those armed at or before {@code now()} in the order they
 * were armed, then the bins that became due in increasing bin order, each first in, first out, and
 * last the due timers of the re-examined bin, first in, first out. The bins are ordered among
 * themselves (every tick in a lower bin is below every tick in a higher one) but a bin that
 * becomes due whole is not sorted inside: from tick 0, deadlines 3 then 2 share bin 1 and, if the
 * clock jumps past both, fire as 3, 2. Timers with equal ticks always share a bin and keep their
 * arming order. Hence: a caller that schedules only future deadlines and always advances to {@code
 * now() + nextExpiryDelay()} receives the timers sorted by tick (with resolution 1: by deadline),
 * first in, first out among equal ticks, because each such advance fires only timers of the lowest
 * bin whose tick is the one just reached. A rescheduled timer counts as armed when it was
 * rescheduled.
 *
 * <h2>Costs</h2>
 * With {@code n} pending timers:
 *
 * <ul>
 *   <li>{@code schedule}, {@code scheduleWithin}, {@code cancel}, {@code reschedule}: {@code O(1)}
 *       amortized, a few bit operations and writing the timer into, or clearing it from, one slot
 *       of an array (plus a division when the resolution is not a power of two).
 *   <li>{@code nextExpiryDelay}: {@code O(1)} amortized (it completes the last cancel's removal,
 *       see below); {@code size}, {@code now}: {@code O(1)}.
 *   <li>{@code advance}: {@code O(1)} per non-empty bin that becomes due whole (at most 64, found
 *       in the bitmap), per timer re-examined and per timer fired. Each re-examination moves a
 *       timer to a strictly lower bin, so a timer is examined at most 64 times in its life, and at
 *       most {@code 2 + log2(d)} times for a distance of {@code d} ticks; when the clock jumps,
 *       whole bins fire without being examined at all.
 *   <li>{@code clear}, {@code drain}, {@code forEach}: {@code O(n)}.
 * </ul>
 *
 * A timer takes 32 bytes (with compressed references) and one or two slots of 4 bytes; a timer
 * in one of the {@value IdBins#BINS} lowest bins may instead be held by id, in 16 bytes, for at
 * most an eighth of the timers plus {@value #FREE_HELD} (see the notes in the class body). Nothing
 * is allocated on the paths that re-arm, cancel and fire timers once the queue has reached its
 * working size, except the handle that {@code schedule} and {@code scheduleWithin} create. A
 * cancelled timer stays referred to from the slot it left until the queue's next operation.
 *
 * <h2>Where this differs from the original C library</h2>
 * <ul>
 *   <li>64 bins over unsigned tick distances from the start time replace 32 bins and an overflow
 *       bin, so every {@code long} deadline is accepted and none is ever rescanned.
 *   <li>The original's start returns early for a timeout already in a list, so restarting it with a
 *       new time or range leaves it in its old bin. Here every arming ({@code reschedule}, the
 *       original's touch) first takes the timer out of wherever it is, so it always lands in the
 *       bin its new deadline dictates.
 *   <li>Timers made due while an advance hands out timers are kept apart from those it is handing
 *       out, so they fire in the next advance, as the contract requires.
 *   <li>The original links its timeouts into lists; here the bins are arrays of references, and
 *       the lowest bins may be arrays of ids (see the notes in the class body).
 * </ul>
 */
final class HiTimeTimerQueue<T> extends AbstractTimerQueue<T, HiTimeTimer<T>> {
  /*
   * Implementation notes: the layout, and the cache lines each operation touches.
   *
   * A bucket (TimerBucket) is an array of slots, each a compressed reference to a timer, with the
   * timers in arming order; a timer records only its slot number, an int, plus one bit that says
   * whether its bucket holds due timers (bucketOf). The 64 bins are buckets, and so are the due
   * timers: one bucket of due timers waiting for the next advance and one of those that the
   * running advance hands out; the advance swaps the two, which moves no timer. The buckets, their
   * bookkeeping and the slots at their tails are few (66 of each) and stay in the cache, so:
   *
   * - cancel reads the timer (one line, the one the caller's handle points to); its slot (a second
   *   line; at a million timers the slot arrays take 4 MB and mostly stay in the last-level cache,
   *   where the timers, 32 MB, do not) is cleared, and its bin counts it out, by the queue's next
   *   operation (settle), after that operation's own append if it arms a timer: a cancel is mostly
   *   followed by an arming, whose write barrier's fence would otherwise wait for the clearing
   *   store's miss, as the wheel and cascade also arrange. At 10^6 timers that took the median
   *   schedule+cancel of five interleaved JMH forks from 117 to 110 ns, and its thread CPU from
   *   1.17 to 1.09 times that of timer-bench's floor-counted, which finds and counts its buckets
   *   as hitime does and never makes room (OperationCpu, median of four JVMs each);
   * - schedule and reschedule write the timer and append it at its bin's tail, which is in the
   *   cache; reschedule of a pending timer also clears its old slot, as cancel does, but after
   *   the append, whose write barrier would otherwise wait for that store's miss;
   * - re-examining a bin reads its slots in order (a line per 16 timers) and, up to 256 at a time,
   *   the deadlines of their timers, loads that do not wait for one another. The filing that
   *   follows each batch runs write barriers whose fences wait for every load before them, so the
   *   misses in flight drain at each batch's end: 32 keep more in flight than 16 (at a million
   *   timers spread over a wide range, the flow of expiring timers costs a sixth less), and 256
   *   drain eight times less often than 32 (that flow costs a tenth less again, and at 10^5 timers
   *   or with 16 TTLs a seventh less; 512 and 1024 gained little more). Batches stay at 32 until a
   *   queue of 32 timers per deadline read ahead re-examines a larger bin (lookahead), so that a
   *   small queue keeps its size. It then files each run of timers bound for the same bucket with
   *   one System.arraycopy; in arming order, timers with nearby deadlines follow one another, so
   *   with one TTL the runs are thousands long. A timer stays in its run on one comparison of its
   *   deadline with the run's range, so the tick and the bin are worked out once per run, not once
   *   per timer. Re-filing a bin is a sequential pass over an array, not a chase of links in which
   *   each miss waits for the one before. When the last run goes to an empty bin and is a quarter
   *   of the array or more, that bin takes the array whole and the run's timers keep their slots:
   *   with one TTL, the bin below takes half the timers this way at every step down, and the array
   *   passes from bin to bin without its timers being copied or written to;
   * - a bin whose timers came in at random (TimerBucket.descents: more than one timer in eight
   *   appended after a later one) has runs of about two timers, and whether a timer stays in a
   *   run is a branch mispredicted half the time: such a bin is re-examined timer by timer
   *   (reexamineScattered), each appended to its bucket with no branch that depends on its
   *   deadline. That cut the time per fired timer of the flow of expiring timers by about a
   *   sixth at 10^6 timers and by a quarter or more at 10^5, where the timers are in the cache.
   *   Each is counted as out of order without its tick being compared with the one appended
   *   before (TimerBucket.appendOutOfOrder), which took that flow from a median 125.7 to 122.9
   *   ns per fired timer (eight interleaved JMH forks, faster in seven);
   * - a large bin whose timers are in tick order (TimerBucket.sorted(): each was appended at or
   *   after the tick of the one before, which with one TTL is always so, since timers are armed in
   *   the order they fall due; large: MIN_SEARCHED_BIN timers or more) is re-examined without
   *   reading every timer: the timers bound for each bucket are one stretch of slots, whose end a
   *   galloping search finds in about 2 log2(s) reads of timers for a stretch of s
   *   (reexamineSorted). Only the timers of the stretches that are copied are then touched, to
   *   write their new slot numbers; the handed-over last stretch is not touched at all. A timer is
   *   re-filed once per set bit of its tick below its first bin, and once more to become due: with
   *   one TTL of 125,000 ticks (a million timers, eight fired per tick), 9.5 times on average, 4
   *   of them from bins of 2^14 timers or more, where it is now not read;
   * - firing reads the slots of the due bucket in order, written moments before by the
   *   re-examination, and hands out timers that that re-examination has just read;
   * - a bin that becomes due whole, when the clock jumps, is appended to the due bucket by the
   *   same copying, which writes each timer's new slot number: one line per timer, the line that
   *   handing the timer out reads anyway. (Moving the bin's array instead, untouched, would save
   *   that write but make bins trade arrays of unrelated sizes, so that a steady mix of jumps and
   *   re-arming would keep allocating.)
   *
   * Why references are written as rarely as possible: under G1, storing a reference into an old
   * object (a timer, a slot array) from another region runs a write barrier with a StoreLoad
   * fence, after which no load proceeds until the store buffer has drained, stores that missed
   * the cache included. Hence the int slot in the timer rather than a reference to its bucket, and
   * one arraycopy per run, whose barrier marks the cards of the whole range once. The one
   * reference store left per operation is the append of a single timer.
   *
   * The lowest bins by id (IdBins). A timer on its way down is re-filed about once per set bit of
   * its tick below its first bin, and most of those re-filings are among the lowest bins: in the
   * flow of expiring timers at 10^6 timers (delays at random up to 2^18 ticks, eight fired per
   * tick), 5.0 per fired timer between the bins below 2^12 ticks, against 2.2 between the bins
   * above. Held by reference, each of those writes the timer's slot number, a line that mostly
   * misses, and stores a reference, whose fence waits for that store. So the 12 lowest bins may
   * hold their timers by id instead: an entry of two ints, the timer's id and the low 32 bits of
   * its tick, the timer being found through a table by id. Re-examining such a bin reads its
   * entries in order, rebuilds each tick from its low bits (it agrees with the clock's above bit
   * 11) and appends two ints to the bin below: no reference stored and no timer touched until the
   * timer becomes due, when the lines of the due timers are read together before they are filed
   * (fileDueById). That took the flow of expiring timers from 131 to 116 ns per fired timer,
   * from 1.11 to 0.97 times the time of Agrona's wheel (medians of five interleaved JMH forks),
   * and the flow of 16 TTLs from 142 to 125 ns.
   *
   * A bin chooses its layout when it fills from empty and keeps it until it empties. Only a
   * re-examination of a bin out of tick order (reexamineScattered) fills empty low bins by id, and
   * a bin held by id fills the bins below it by id; an arming and a re-examination in tick order
   * fill an empty bin by reference, and an arming into a bin held by id joins it by id. With one
   * TTL, the runs and stretches of a bin in tick order move whole, as arrays or with one copy,
   * which moving timers one entry at a time loses to: a build that filed every low bin by id took
   * that flow from about 31 to 47 ns per fired timer.
   *
   * An entry and its id cost 16 bytes where a slot costs 4, so the timers held by id are bounded
   * (mayHoldById): a re-examination fills by id only if all its timers fit within an eighth of the
   * queue's timers plus FREE_HELD, and an arming past that bound first moves the bin it joins into
   * the bin's bucket (holdByReference). A cancel clears only the timer's entry in the table, not
   * its entry in the bin, which goes stale until next met (IdBins).
   *
   * The linked lists these buckets replace made cancel write to the timer's two neighbours, two
   * more lines, and made every pass over a bin wait for one miss per timer. Holes left by
   * cancellation are bounded and compacted away (see TimerBucket). The tick at which a timer is
   * due is not stored: it is derived from the deadline (tickOf), with a shift when the resolution
   * is a power of two, which keeps a timer at 32 bytes.
   */

  static final int BINS = Long.SIZE;
  /**
   * Timers whose deadlines a re-examination reads ahead of filing them, at most: 2 KB of
   * deadlines, and the lines of 256 timers, 16 KB, which stay in the first-level cache until they
   * are filed.
   */
  static final int LOOKAHEAD = 256;
  /**
   * Timers whose deadlines a re-examination reads ahead of filing them until the queue first
   * re-examines a larger bin while it holds {@value #TIMERS_PER_LOOKAHEAD} times as many timers:
   * a small queue never needs more, and 2 KB of deadlines would add almost 2 bytes per timer to a
   * queue of a thousand.
   */
  static final int FIRST_LOOKAHEAD = 32;
  /**
   * The fewest timers the queue holds per deadline read ahead, once it reads more than {@link
   * #FIRST_LOOKAHEAD}: the array of deadlines read ahead then costs at most a quarter of a byte
   * per timer.
   */
  static final int TIMERS_PER_LOOKAHEAD = 32;
  /** Slots that a compacting bucket scans for timers before moving them (TimerBucket). */
  static final int COMPACTED_STRETCH = 64;
  /**
   * The fewest timers of a bin in tick order that a re-examination files by searching for the end
   * of each stretch ({@link #reexamineSorted}) rather than by reading every timer. Each probe of
   * the search waits for the one before, a cache miss apiece when the timers lie at random in
   * memory, where the pass reads {@value #LOOKAHEAD} timers at a time, or streams them when they
   * lie in arming order; about {@code 2 (c + 1) log2(n / (c + 1))} probes for the {@code n}
   * timers of bin {@code c} cost less than that pass only from about 2<sup>14</sup> timers.
   */
  static final int MIN_SEARCHED_BIN = 1 << 14;
  /**
   * A bin out of tick order is re-examined timer by timer ({@link #reexamineScattered}) if more
   * than one in 2<sup>{@value}</sup> of its timers came after a later one ({@link
   * TimerBucket#descents}), else by runs: deadlines at random make a descent about every second
   * timer, one TTL only where re-examined timers join those armed since.
   */
  static final int SCATTERED_DESCENTS_SHIFT = 3;
  /**
   * Timers the low bins may hold by id in a queue of any size, beyond an eighth of its timers
   * ({@link #mayHoldById}): 16 KB of ids and entries at most.
   */
  static final int FREE_HELD = 1024;

  // Package-private, like the buckets below, so that HiTimeInvariants can check the structure.
  final long resolution;
  /** log2 of the resolution if it is a power of two, else -1. */
  private final int resolutionShift;
  /** The start time, from which the queue counts time. */
  private final long startTime;
  /**
   * {@link #resolutionShift} while the clock is less than 2<sup>63</sup> units from its start,
   * else -1: while it is not -1, a timer's tick is worked out from its deadline with a subtraction
   * and a shift ({@link #tickOf(long)}).
   */
  private int tickShift;
  /** The last tick that starts on the clock: {@code tick * resolution} does not pass 2^64 - 1. */
  private final long lastTickOnClock;
  /** The most whole ticks that {@code Long.MAX_VALUE} units hold. */
  private final long maxTicksInLong;

  /** The queue's clock, its unsigned distance from the start time, and that distance in ticks. */
  long now;
  long elapsed;
  long nowTick;

  /**
   * {@code bins[b]} holds the timers whose tick first differs from {@link #nowTick} at bit b; it
   * is {@code null} until a timer first goes there, since most queues use only a few bins.
   */
  final TimerBucket<T>[] bins;
  /** Bit b is set exactly when {@code bins[b]} is not empty. */
  long occupied;
  /** The arrays that emptied buckets let go of, for the buckets that grow. */
  final SlotArrays<T> slotArrays = new SlotArrays<>();
  /** Due timers waiting to be handed out by the next advance. */
  TimerBucket<T> due;
  /** Due timers that the running advance hands out; empty outside an advance. */
  TimerBucket<T> firing;
  int size;
  private boolean advancing;
  /** The numbers of the slots that hold timers, a stretch at a time, in a bucket compacting. */
  final int[] takenSlots = new int[COMPACTED_STRETCH];
  /**
   * The deadlines of the next timers of the bin being re-examined, as many as it has room for:
   * from {@link #FIRST_LOOKAHEAD} up to {@link #LOOKAHEAD}, grown by {@link
   * #lookahead(TimerBucket)}; in a bin held by id, the ids of the next due timers.
   */
  private long[] lookahead = new long[FIRST_LOOKAHEAD];
  /**
   * The slot of a bin that still refers to the timer the last cancel took out of it, and which the
   * bin still counts, or {@link HiTimeTimer#NOT_PENDING}: {@link #settle} clears it. Kept as an
   * {@code int} and the timer's deadline, from which the bin follows, rather than as a reference
   * to the bin, whose store would run G1's write barrier and fence on the very miss this defers.
   */
  int unsettledSlot = HiTimeTimer.NOT_PENDING;
  /** The deadline that the timer of {@link #unsettledSlot} had when it was cancelled. */
  long unsettledDeadline;
  /**
   * Bit b is set if bin b holds its timers by id, in {@link #low}, when it holds any ({@link
   * #isIdBin}); only the {@value IdBins#BINS} lowest bins may, and a bin chooses only when it
   * fills from empty.
   */
  long idLayout;
  /** The low bins while they hold their timers by id. */
  final IdBins<T> low = new IdBins<>();
  /** The sum of the slots read by the last {@link #fileDueById}: only to keep those reads. */
  private int touchedSlots;
  /** {@link #FREE_HELD}, or less in tests, so that small queues reach the bound. */
  private final int freeHeld;

  HiTimeTimerQueue(TimerConfig config) {
    this(config, FREE_HELD);
  }

  /** A queue whose low bins may hold {@code freeHeld} timers by id beyond an eighth of its own. */
  @SuppressWarnings("unchecked")
  HiTimeTimerQueue(TimerConfig config, int freeHeld) {
    this.freeHeld = freeHeld;
    this.now = config.startTime();
    this.resolution = config.resolution();
    this.resolutionShift = Long.bitCount(resolution) == 1
        ? Long.numberOfTrailingZeros(resolution) : -1;
    this.startTime = config.startTime();
    this.tickShift = resolutionShift;
    this.lastTickOnClock = Long.divideUnsigned(-1L, resolution);
    this.maxTicksInLong = Long.MAX_VALUE / resolution;
    this.bins = (TimerBucket<T>[]) new TimerBucket<?>[BINS];
    this.due = new TimerBucket<>(this, TimerBucket.DUE);
    this.firing = new TimerBucket<>(this, TimerBucket.DUE);
  }

  @Override
  public String strategy() {
    return HiTimeTimerQueueProvider.NAME;
  }

  @Override
  public long now() {
    return now;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The original's start-within-a-range. If {@code earliest} is at or before {@link #now()}
   * the timer is simply due: its deadline is {@code earliest} and it fires at the next advance,
   * having never been in a bin. Otherwise the range is turned into ticks, from {@code earliest}
   * rounded up to {@code latest} rounded up, and the tick with the most trailing zero bits is
   * chosen: the fewer low bits a tick has set, the fewer bins the timer passes through on its way
   * down. The handle's deadline is the start of the chosen tick, or the end of the range if the
   * chosen tick is the one that the end rounds up to. As the contract says, a range whose {@code
   * latest} lies more than {@code Long.MAX_VALUE} ahead ends at {@code now() + Long.MAX_VALUE};
   * and a tick that starts beyond that point, where the signed rule would read it as past, is
   * chosen only if no other tick is in the range. {@code O(1)} amortized.
   */
  @Override
  public TimerHandle<T> scheduleWithin(long earliest, long latest, T payload) {
    Objects.requireNonNull(payload, "payload");
    TimerQueueChecks.checkRange(earliest, latest);
    HiTimeTimer<T> timer = newTimer(payload);
    long earliestDistance = earliest - now;
    if (earliestDistance <= 0) {
      arm(timer, earliest);
      return timer;
    }
    long end = latest;
    long endDistance = latest - now;
    if (endDistance < 0) {
      // latest alone would read as past, though it is after earliest, which is ahead.
      endDistance = Long.MAX_VALUE;
      end = now + Long.MAX_VALUE;
    }
    long earliestKey = keyAhead(elapsed, earliestDistance);
    long latestKey = keyAhead(elapsed, endDistance);
    long firstTick = ceilTick(earliestKey);
    long endTick = ceilTick(latestKey);
    long lastTick = endTick;
    if (endDistance > Long.MAX_VALUE - resolution) {
      // The end's tick may start more than Long.MAX_VALUE ahead, a time the signed rule reads as
      // past: keep to the ticks that start within reach, if one of them is in the range.
      long lastReachable = floorTick(keyAhead(elapsed, Long.MAX_VALUE));
      if (Long.compareUnsigned(lastReachable, firstTick) >= 0
          && Long.compareUnsigned(lastReachable, lastTick) < 0) {
        lastTick = lastReachable;
      }
    }
    // The tick in (firstTick - 1, lastTick] with the most trailing zeros keeps the bits of lastTick
    // down to the highest bit in which it differs from firstTick - 1, and clears the rest.
    long tick = lastTick & -Long.highestOneBit((firstTick - 1) ^ lastTick);
    // Either deadline rounds up to exactly this tick, so tickOf derives it again.
    timer.setDeadline(tick == endTick ? end : earliest + (tick * resolution - earliestKey));
    file(timer, tick);
    size++;
    return timer;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The original's touch: a pending timer is taken out of wherever it is (a bin or a bucket of
   * due timers) and filed again by its new deadline, at the back of its new bucket; a timer that
   * is not pending is simply filed. {@code O(1)} amortized.
   */
  @Override
  public boolean reschedule(TimerHandle<T> timer, long deadline) {
    HiTimeTimer<T> owned = own(timer);
    if (owned.slot < 0) {
      arm(owned, deadline);
      return false;
    }
    long tick = filingTick(deadline);
    int toBin = tick == nowTick ? TimerBucket.DUE : binNumber(tick);
    if ((owned.slot & HiTimeTimer.ID_SLOT) != 0 || isIdBin(toBin)) {
      // A timer held by id, or bound for a bin that holds timers by id, has no slot to move.
      remove(owned);
      arm(owned, deadline);
      return true;
    }
    // Before the timer's bucket is found and possibly compacted, which must not meet a slot that
    // still refers to a timer that left it; and before its slot is read, as settling may compact
    // the timer's own bin and move it.
    settle();
    int slot = owned.slot;
    TimerBucket<T> from = bucketOf(owned);
    owned.setDeadline(deadline);
    // Marked after settling, which may have emptied the bin and unmarked it.
    TimerBucket<T> to = toBin == TimerBucket.DUE ? due : bin(toBin);
    // Fullness is tested first: a bucket is seldom full, so that branch is predicted, where whether
    // the timer stays in its bucket (a third of the moves of deadlines spread widely) is a coin
    // toss: tested first, it was mispredicted often enough to cost 15% of a reschedule's time with
    // every timer in the cache, and made reschedule dearer than cancel and re-arm.
    if (to.isFull() && to == from) {
      // Cleared first, so that the compaction that makes room cannot meet the timer twice.
      from.vacate(slot);
      to.append(owned, tick);
    } else {
      // Appended before its old slot is cleared, even in the same bucket (a third of the moves of
      // deadlines spread widely): the write barrier of the append fences the loads behind it
      // until every store before it has completed, and the clearing store mostly misses the
      // cache; after the append, that miss overlaps with whatever the caller does next.
      to.append(owned, tick);
      vacate(from, slot);
    }
    return true;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The original's timeout followed by its re-entrant, incremental get-next: moving the clock
   * files every timer that became due into the due bucket; this advance then hands out at most
   * {@code limit} of them, and the rest stay at the front of that bucket for the next advance.
   */
  @Override
  public int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit) {
    TimerQueueChecks.checkAdvance(onExpired, limit, advancing);
    settle();
    long step = now - this.now;
    if (step > 0) {
      this.now = now;
      this.elapsed += step;
      if (elapsed < 0) {
        tickShift = -1;
      }
      long tick = floorTick(elapsed);
      if (tick != nowTick) {
        moveClockTo(tick);
      }
    }
    if (!due.isEmpty()) {
      // Handlers file the timers they make due into the other, empty, bucket, not into this one.
      TimerBucket<T> handing = due;
      due = firing;
      firing = handing;
    }
    advancing = true;
    int fired = 0;
    try {
      while (fired < limit && !firing.isEmpty()) {
        HiTimeTimer<T> timer = firing.takeFirst();
        size--;
        fired++;
        onExpired.accept(timer);
      }
      return fired;
    } finally {
      advancing = false;
      if (!firing.isEmpty()) {
        // The timers left over come first, then those that the handlers made due.
        firing.appendAll(due);
        TimerBucket<T> left = firing;
        firing = due;
        due = left;
      }
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The original's get-wait, {@code O(1)}: 0 if a timer is due; otherwise the time until the
   * clock's bit of the lowest non-empty bin next flips, which no timer can precede. Each step of
   * that length makes the lowest bin the re-examined one, so a timer {@code d} ticks away is
   * reached in at most {@code 2 + log2(d)} steps.
   */
  @Override
  public long nextExpiryDelay() {
    // The last cancel's bin may still count its timer, and be marked as holding timers.
    settle();
    if (!due.isEmpty() || !firing.isEmpty()) {
      return 0;
    }
    if (occupied == 0) {
      return Long.MAX_VALUE;
    }
    int bin = Long.numberOfTrailingZeros(occupied);
    // A timer in bin b has bit b set where nowTick has it clear, and agrees with nowTick above b,
    // so it is due no earlier than the first tick after nowTick with bit b set: nowTick with the
    // bits below b cleared, plus 2^b. Timers in higher bins are later still. That tick is above
    // nowTick, so the delay is at least 1.
    long flipTick = (nowTick & (-1L << bin)) | (1L << bin);
    if (Long.compareUnsigned(flipTick, lastTickOnClock) > 0) {
      return Long.MAX_VALUE - 1;
    }
    long delay = flipTick * resolution - elapsed;
    return delay > 0 && delay < Long.MAX_VALUE ? delay : Long.MAX_VALUE - 1;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public void clear() {
    settle();
    due.removeAll();
    firing.removeAll();
    long refBins = occupied & ~idLayout;
    low.clear();
    for (long bits = refBins; bits != 0; bits &= bits - 1) {
      bins[Long.numberOfTrailingZeros(bits)].removeAll();
    }
    occupied = 0;
    size = 0;
    releaseBuckets();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Hands out the due timers first, then the bins from the lowest up: roughly the order in
   * which the timers would have fired.
   */
  @Override
  public int drain(Consumer<? super TimerHandle<T>> sink) {
    Objects.requireNonNull(sink, "sink");
    TimerQueueChecks.checkNotInHandler(advancing, "drain");
    int drained = 0;
    // Bounded by the starting size too, so a sink that arms timers (against the contract) cannot
    // keep the loop going forever.
    for (int left = size; left > 0 && size > 0; left--) {
      // Before first(), which would otherwise meet a timer the last removal left in its slot.
      settle();
      HiTimeTimer<T> timer;
      if (!due.isEmpty()) {
        timer = due.first();
      } else {
        int b = Long.numberOfTrailingZeros(occupied);
        timer = isIdBin(b) ? low.first(b) : bins[b].first();
      }
      remove(timer);
      drained++;
      sink.accept(timer);
    }
    settle();
    releaseBuckets();
    return drained;
  }

  @Override
  public void forEach(Consumer<? super TimerHandle<T>> action) {
    Objects.requireNonNull(action, "action");
    settle();
    due.forEach(action);
    firing.forEach(action);
    for (long bits = occupied; bits != 0; bits &= bits - 1) {
      int b = Long.numberOfTrailingZeros(bits);
      if (isIdBin(b)) {
        low.forEach(b, action);
      } else {
        bins[b].forEach(action);
      }
    }
  }

  @Override
  public String toString() {
    return "HiTimeTimerQueue{now=" + now + ", size=" + size + "}";
  }

  @Override
  protected HiTimeTimer<T> newTimer(T payload) {
    return new HiTimeTimer<>(this, payload);
  }

  @Override
  protected HiTimeTimer<T> ownedOrNull(TimerHandle<T> timer) {
    return timer instanceof HiTimeTimer<T> owned && owned.queue == this ? owned : null;
  }

  /** Lets go of the arrays of the empty buckets, and of those kept for reuse. */
  private void releaseBuckets() {
    slotArrays.clear();
    low.release();
    due.release();
    firing.release();
    for (TimerBucket<T> bin : bins) {
      if (bin != null) {
        bin.release();
      }
    }
  }

  /** Gives a timer that is not pending its deadline and files it where that deadline puts it. */
  @Override
  protected void arm(HiTimeTimer<T> timer, long deadline) {
    timer.setDeadline(deadline);
    file(timer, filingTick(deadline));
    size++;
  }

  /**
   * Appends a timer that is in no bucket to the bucket of {@code tick}, or to its bin if that bin
   * holds timers by id, then completes the last cancel's removal, after the append's store. A
   * bucket that must make room first, which may compact it, is settled before.
   */
  private void file(HiTimeTimer<T> timer, long tick) {
    TimerBucket<T> bucket = bucketAt(tick);
    if (bucket == null) {
      fileById(timer, tick);
      return;
    }
    if (bucket.isFull()) {
      settle();
      // Marks the bin again: settling may have emptied it, and unmarked it.
      bucket = bucketAt(tick);
    }
    bucket.append(timer, tick);
    settle();
  }

  /**
   * The tick a timer with this deadline is filed at: its own if it lies ahead of the clock, else
   * the clock's, which files it as due.
   */
  private long filingTick(long deadline) {
    return deadline - now <= 0 ? nowTick : tickOf(deadline);
  }

  /**
   * The bucket of a timer filed at {@code tick}, at or after the clock's: the due bucket for the
   * clock's tick, else the bin where that tick first differs from the clock's, marked occupied; or
   * {@code null} if that bin holds timers by id.
   */
  private TimerBucket<T> bucketAt(long tick) {
    // A deadline ahead of the clock has the clock's own tick only at the very end of the clock,
    // where a saturated key rounds to it.
    if (tick == nowTick) {
      return due;
    }
    int bin = binNumber(tick);
    return isIdBin(bin) ? null : bin(bin);
  }

  /**
   * Takes a pending timer out of whichever bucket holds it, {@code O(1)} amortized (see the class
   * notes on compaction). What {@code cancel} does. A timer in a bin leaves its slot, still
   * referring to it, and its count in the bin, for {@link #settle} to clear: see the class notes.
   * The removal left before, if any, is completed first, so at most one is ever outstanding.
   */
  @Override
  protected void remove(HiTimeTimer<T> timer) {
    settle();
    int slot = timer.slot;
    timer.slot = HiTimeTimer.NOT_PENDING;
    size--;
    if ((slot & HiTimeTimer.ID_SLOT) != 0) {
      removeById(timer, slot);
    } else if ((slot & HiTimeTimer.DUE_SLOT) == 0) {
      unsettledDeadline = timer.deadline();
      unsettledSlot = slot;
    } else {
      vacate(dueBucketOf(timer, slot), slot);
    }
  }

  /** {@link #remove} of a timer held by id: its entry goes stale; an emptied bin is unmarked. */
  private void removeById(HiTimeTimer<T> timer, int slot) {
    int bin = binNumber(tickOf(timer));
    if (low.cancel(slot & HiTimeTimer.SLOT_INDEX, bin)) {
      occupied &= ~(1L << bin);
    }
  }

  /**
   * Completes the removal that the last cancel left, if it left one: clears the slot, which still
   * refers to the timer, and counts the timer out of its bin, found from the deadline the timer
   * had, as the clock has not moved since. Every operation calls this before it reads, moves or
   * counts the slots of a bin, or reads the bitmap, and an arming after its append ({@link #file}).
   */
  void settle() {
    int slot = unsettledSlot;
    if (slot >= 0) {
      unsettledSlot = HiTimeTimer.NOT_PENDING;
      vacate(bins[binNumber(tickOf(unsettledDeadline))], slot);
    }
  }

  /** Empties a slot of {@code bucket} whose timer has left it; an emptied bin is unmarked. */
  private void vacate(TimerBucket<T> bucket, int slot) {
    bucket.vacate(slot);
    int bin = bucket.bin;
    if (bin != TimerBucket.DUE && bucket.isEmpty()) {
      occupied &= ~(1L << bin);
    }
  }

  /**
   * Moves the clock forward from {@link #nowTick} to {@code tick}, filing every timer that became
   * due into the due bucket.
   *
   * <p>Why this is right. Let {@code last} be the old tick and {@code c} the highest bit in which
   * {@code last} and {@code tick} differ; as {@code tick > last}, {@code tick} has bit c set and
   * {@code last} has it clear, and above c they agree. A timer in bin b agrees with {@code last}
   * above bit b and has bit b set where {@code last} has it clear.
   *
   * <ol>
   *   <li>Bin b &lt; c: the timer agrees with {@code last}, hence with {@code tick}, above c, and
   *       has bit c clear where {@code tick} has it set, so it is below {@code tick}: due. This
   *       covers bin 0 and every bin below {@code highestOneBit(tick - last)}, which is at most c,
   *       since two numbers that agree above bit c differ by less than 2<sup>c+1</sup>. These bins
   *       become due whole, without comparing any of their timers with the clock.
   *   <li>Bin b &gt; c: {@code tick} agrees with {@code last} at and above b, so the timer still
   *       differs from the clock first at bit b and is still ahead of it: its bin is unchanged.
   *   <li>Bin c: the timer and {@code tick} both have bit c set and agree above it, so they differ
   *       below c if at all. Each timer there either is due or belongs in a bin strictly below c,
   *       so the pass over bin c never meets a timer it has moved.
   * </ol>
   */
  private void moveClockTo(long tick) {
    int changed = (BINS - 1) - Long.numberOfLeadingZeros(nowTick ^ tick);
    nowTick = tick;
    long below = (1L << changed) - 1;
    for (long bits = occupied & below; bits != 0; bits &= bits - 1) {
      int b = Long.numberOfTrailingZeros(bits);
      if ((idLayout & (1L << b)) != 0) {
        dueById(b);
      } else {
        due.appendAll(bins[b]);
      }
    }
    occupied &= ~below;
    // The bins below are empty, and the layout of each is chosen again when it next fills.
    idLayout &= ~below;
    long changedBit = 1L << changed;
    if ((occupied & changedBit) != 0) {
      occupied &= ~changedBit;
      if ((idLayout & changedBit) != 0) {
        reexamineById(changed, tick);
      } else {
        reexamine(bins[changed], tick);
      }
    }
  }

  /** Appends every timer of bin {@code bin}, which holds timers by id, to the due bucket. */
  private void dueById(int bin) {
    IdBin from = low.bins[bin];
    int[] entries = from.entries;
    HiTimeTimer<T>[] byId = low.byId;
    long[] dueIds = lookahead;
    int dueCount = 0;
    for (int i = 0, end = from.tail; i < end; i += 2) {
      int id = entries[i];
      if (byId[id] == null) {
        low.freeStale(id);
      } else {
        dueCount = batchDue(dueIds, dueCount, id);
      }
    }
    fileDueById(dueIds, dueCount);
    IdBins.emptied(from);
  }

  /**
   * {@link #reexamine} of bin {@code bin}, which holds timers by id: each timer is due, or moves to
   * a lower bin, which is empty and takes it by id, as two {@code int}s. Its tick is rebuilt from
   * the low 32 bits kept in its entry, as it agrees with {@code tick} above bit {@code bin} (at
   * most 11).
   */
  private void reexamineById(int bin, long tick) {
    IdBin from = low.bins[bin];
    IdBin[] idBins = low.bins;
    int[] entries = from.entries;
    HiTimeTimer<T>[] byId = low.byId;
    long[] dueIds = lookahead;
    int dueCount = 0;
    long high = tick & 0xFFFF_FFFF_0000_0000L;
    long filled = 0;
    for (int i = 0, end = from.tail; i < end; i += 2) {
      int id = entries[i];
      if (byId[id] == null) {
        low.freeStale(id);
        continue;
      }
      int tickLow = entries[i + 1];
      long timerTick = high | (tickLow & 0xFFFF_FFFFL);
      if (Long.compareUnsigned(timerTick, tick) > 0) {
        int target = (BINS - 1) - Long.numberOfLeadingZeros(timerTick ^ tick);
        filled |= 1L << target;
        IdBin to = idBins[target];
        low.append(to, id, tickLow);
        to.size++;
      } else {
        dueCount = batchDue(dueIds, dueCount, id);
      }
    }
    fileDueById(dueIds, dueCount);
    IdBins.emptied(from);
    occupied |= filled;
    idLayout |= filled;
  }

  /**
   * Adds the id of a due timer to the batch of {@code count} in {@code ids}, filing the batch if
   * that fills it; returns how many the batch then holds.
   */
  private int batchDue(long[] ids, int count, int id) {
    ids[count++] = id;
    if (count < ids.length) {
      return count;
    }
    fileDueById(ids, count);
    return 0;
  }

  /**
   * Appends the timers of {@code count} ids to the due bucket, in order, and frees the ids. Each
   * append writes the timer's slot number, a store to a line that mostly misses the cache, and
   * then stores a reference, whose write barrier fences until that store completes: appended
   * straight away, the timers would take their misses one after the other. So their lines are
   * first read together, loads that do not wait for one another, and the appends then find them
   * in the cache. Up to {@link #LOOKAHEAD} at a time, in the array of deadlines read ahead, which
   * no re-examination by id uses.
   */
  private void fileDueById(long[] ids, int count) {
    HiTimeTimer<T>[] byId = low.byId;
    int slots = 0;
    for (int k = 0; k < count; k++) {
      slots += byId[(int) ids[k]].slot;
    }
    // Stored so that the reads above are not optimized away.
    touchedSlots = slots;
    for (int k = 0; k < count; k++) {
      due.appendOutOfOrder(low.take((int) ids[k]));
    }
  }

  /**
   * Takes every timer out of {@code bin}, in order, and files it again: in the due bucket if its
   * tick is at or before {@code tick}, the clock's new one, else in a lower bin.
   *
   * <p>Where a timer goes depends only on how far its deadline lies past the end of the clock's
   * tick: with {@code past} that distance, it is due if {@code past <= 0}, else its tick is
   * {@code tick + ceil(past / resolution)}. Each bin below the re-examined one holds a range of
   * ticks (those that agree with the clock's above the bin's bit and have that bit set), so a
   * range of {@code past}: the first timer of a run finds its bucket the long way (tickOf, binOf),
   * and each timer after it stays in the run on one subtraction and one comparison of its deadline
   * with that range. That holds while the clock is less than 2<sup>63</sup> units from its start:
   * then no distance from the start time was ever saturated at the end of the clock, and {@code
   * past} does not overflow, as every timer here was armed in an earlier tick and no more than
   * {@code Long.MAX_VALUE} ahead. Beyond that every timer is filed the long way.
   */
  private void reexamine(TimerBucket<T> bin, long tick) {
    boolean sorted = bin.sorted();
    if (sorted && bin.size >= MIN_SEARCHED_BIN) {
      reexamineSorted(bin, tick);
      return;
    }
    if (bin.descents > bin.size >>> SCATTERED_DESCENTS_SHIFT) {
      reexamineScattered(bin, tick);
      return;
    }
    HiTimeTimer<T>[] slots = bin.slots;
    long[] deadlines = lookahead(bin);
    int batch = deadlines.length;
    int end = bin.tail;
    // The last due deadline: the end of the clock's tick, in the queue's time.
    long dueEnd = now - (elapsed - tick * resolution);
    boolean runsByDeadline = elapsed >= 0;
    // A hole reads as a deadline that lies past no run's range.
    long holeDeadline = dueEnd + Long.MIN_VALUE;
    // Consecutive timers bound for the same bucket form a run, appended in one copy: in arming
    // order, timers of nearby deadlines follow one another, and go to the same lower bin. The run
    // takes the timers whose past lies in (runLow, runLow + runWidth].
    TimerBucket<T> runBucket = null;
    long runLow = 0;
    long runWidth = 0;
    int runStart = bin.head;
    for (int start = bin.head; start < end; start += batch) {
      int count = Math.min(batch, end - start);
      // First read the deadlines of the next timers, loads that do not wait for one another:
      // filing a timer stores a reference, whose write barrier fences the loads behind it, so
      // reading each timer as it is filed would take its cache miss alone.
      for (int i = 0; i < count; i++) {
        HiTimeTimer<T> timer = slots[start + i];
        deadlines[i] = timer == null ? holeDeadline : timer.deadline();
      }
      for (int i = 0; i < count; i++) {
        long past = deadlines[i] - dueEnd;
        if (Long.compareUnsigned(past - runLow - 1, runWidth) < 0) {
          continue;
        }
        // The timer leaves the run: find its bucket, and the run it starts, the long way.
        TimerBucket<T> target = null;
        runWidth = 0;
        if (slots[start + i] != null) {
          long timerTick = tickOf(deadlines[i]);
          if (Long.compareUnsigned(timerTick, tick) <= 0) {
            target = due;
            runLow = -resolution;
            runWidth = resolution;
          } else {
            target = binOf(timerTick);
            // The bin's ticks: those that agree with the clock's above its bit and have that bit
            // set, which the clock's has clear.
            long binBit = Long.highestOneBit(timerTick ^ tick);
            long lastTick = tick | (binBit + binBit - 1);
            runLow = timeOfTicks(lastTick - binBit - tick);
            runWidth = timeOfTicks(lastTick - tick) - runLow;
          }
        }
        if (target != runBucket) {
          fileRun(runBucket, slots, runStart, start + i - runStart, sorted);
          runBucket = target;
          runStart = start + i;
        }
        if (!runsByDeadline) {
          runWidth = 0;
        }
      }
    }
    int last = end - runStart;
    if (runBucket != null && runBucket != due && runBucket.isEmpty()
        && last >= slots.length >>> 2) {
      // The last run goes to an empty bin and fills a quarter of the array or more (with one TTL,
      // half the bin goes to the bin just below): the bin takes the array, and the run's timers
      // keep their slots, neither copied nor written to.
      Arrays.fill(slots, bin.head, runStart, null);
      bin.handOver(runBucket, runStart, last);
    } else {
      fileRun(runBucket, slots, runStart, last, sorted);
      Arrays.fill(slots, bin.head, end, null);
      bin.emptied();
    }
  }

  /**
   * {@link #reexamine} of a bin whose timers are not in tick order: each timer is appended to its
   * bucket on its own. There, consecutive timers seldom go to the same bucket (with deadlines at
   * random, half go to the bin just below, a quarter to the next, and so on), so runs are about
   * two timers long, and whether a timer stays in the run is a coin toss that the processor
   * mispredicts half the time; at 10^5 timers, all in the cache, finding and copying runs took
   * most of the time of the flow of expiring timers. Here the only branches a timer takes are
   * whether its slot is a hole and whether it is due, nearly always the same way.
   */
  private void reexamineScattered(TimerBucket<T> bin, long tick) {
    HiTimeTimer<T>[] slots = bin.slots;
    long[] deadlines = lookahead(bin);
    int batch = deadlines.length;
    int end = bin.tail;
    // With a power of two for the resolution, a timer's tick is the clock's plus its distance
    // past the end of the clock's tick in whole ticks, rounded up: a subtraction and a shift,
    // where tickOf tests the sign, saturates and multiplies back. That distance neither overflows
    // nor saturates while the clock is less than 2^63 units from its start (see reexamine), which
    // is when tickShift is not -1.
    int shift = tickShift;
    long dueEnd = now - (elapsed - tick * resolution);
    // The bins filed into, marked in the bitmap once at the end rather than at each timer.
    long filled = 0;
    // The low bins this pass fills are empty, as every bin below this one is: they take the
    // timers by id if the bound allows all of this bin's to come in, else by reference.
    boolean byId = mayHoldById(bin.size);
    long filledById = 0;
    for (int start = bin.head; start < end; start += batch) {
      int count = Math.min(batch, end - start);
      // Deadlines first, loads that do not wait for one another (see reexamine), and nothing
      // else: work here that waits for those loads would fill the processor's reorder buffer
      // before the last of them is issued.
      for (int i = 0; i < count; i++) {
        HiTimeTimer<T> timer = slots[start + i];
        deadlines[i] = timer == null ? 0 : timer.deadline();
      }
      for (int i = 0; i < count; i++) {
        HiTimeTimer<T> timer = slots[start + i];
        if (timer != null) {
          long deadline = deadlines[i];
          long timerTick =
              shift >= 0 ? tick + ((deadline - dueEnd - 1) >> shift) + 1 : tickOf(deadline);
          TimerBucket<T> target = due;
          if (Long.compareUnsigned(timerTick, tick) > 0) {
            int binIndex = (BINS - 1) - Long.numberOfLeadingZeros(timerTick ^ tick);
            long binBit = 1L << binIndex;
            if (byId && binIndex < IdBins.BINS) {
              filledById |= binBit;
              low.add(binIndex, timer, timerTick);
              slots[start + i] = null;
              continue;
            }
            filled |= binBit;
            target = bins[binIndex];
            if (target == null) {
              target = binOf(timerTick);
            }
          }
          target.appendOutOfOrder(timer);
          // Cleared while its line is in the cache, not in a second pass over the array; a
          // null store runs no card-marking barrier.
          slots[start + i] = null;
        }
      }
    }
    occupied |= filled | filledById;
    idLayout |= filledById;
    bin.emptied();
  }

  /**
   * {@link #reexamine} of a bin whose timers are in the order of their ticks. Each bucket they go
   * to, the due bucket and then bins in increasing order, takes a range of ticks, so its timers
   * are one stretch of slots, whose end a galloping search finds reading a few timers: about
   * {@code 2 log2(s)} for a stretch of {@code s}. Each stretch is then appended in order, its
   * timers' slot numbers written; the last, if it goes to an empty bin and holds a quarter of the
   * array or more, takes the array and its timers are not touched at all.
   */
  private void reexamineSorted(TimerBucket<T> bin, long tick) {
    HiTimeTimer<T>[] slots = bin.slots;
    int end = bin.tail;
    int left = bin.size;
    int start = bin.head;
    while (left > 0) {
      while (slots[start] == null) {
        start++;
      }
      long firstTick = tickOf(slots[start]);
      TimerBucket<T> target;
      long lastTargetTick;
      if (Long.compareUnsigned(firstTick, tick) <= 0) {
        target = due;
        lastTargetTick = tick;
      } else {
        target = binOf(firstTick);
        long binBit = Long.highestOneBit(firstTick ^ tick);
        lastTargetTick = tick | (binBit + binBit - 1);
      }
      int stop = stretchEnd(slots, start + 1, end, lastTargetTick);
      if (stop == end && target != due && target.isEmpty() && left >= slots.length >>> 2) {
        Arrays.fill(slots, bin.head, start, null);
        bin.handOver(target, start, left);
        return;
      }
      int last = stop - 1;
      while (slots[last] == null) {
        last--;
      }
      left -= target.appendInOrder(slots, start, stop, firstTick, tickOf(slots[last]));
      start = stop;
    }
    Arrays.fill(slots, bin.head, end, null);
    bin.emptied();
  }

  /**
   * In slots sorted by tick whose timers before {@code from} are due at or before {@code
   * lastTick}, the end of that stretch: the first slot from which every timer before {@code end}
   * is due later. Gallops from {@code from}, then halves; a probe that meets an empty slot reads
   * the next timer.
   */
  private int stretchEnd(HiTimeTimer<T>[] slots, int from, int end, long lastTick) {
    // Every timer before low is in the stretch; every timer from high to end is not.
    int low = from;
    int high = end;
    int step = 1;
    boolean galloping = true;
    while (low < high) {
      int probe = galloping ? Math.min(low + step - 1, high - 1) : (low + high) >>> 1;
      int at = probe;
      while (at < high && slots[at] == null) {
        at++;
      }
      if (at < high && Long.compareUnsigned(tickOf(slots[at]), lastTick) <= 0) {
        low = at + 1;
        step <<= 1;
      } else {
        high = probe;
        galloping = false;
      }
    }
    return low;
  }

  /**
   * The array for the deadlines read ahead in re-examining {@code bin}, to read its timers at a
   * time if it can, but no more than one per {@link #TIMERS_PER_LOOKAHEAD} timers of the queue:
   * grown, if it is smaller than both, to the power of two that holds them or to {@link
   * #LOOKAHEAD}. It grows at most three times in the queue's life, so a queue at its working size
   * re-examines its bins without allocating.
   */
  private long[] lookahead(TimerBucket<T> bin) {
    int timers = Math.min(bin.size, size / TIMERS_PER_LOOKAHEAD);
    long[] deadlines = lookahead;
    if (deadlines.length < LOOKAHEAD && timers > deadlines.length) {
      int length = Math.min(LOOKAHEAD, Integer.highestOneBit(timers - 1) << 1);
      deadlines = lookahead = new long[length];
    }
    return deadlines;
  }

  /** How many deadlines a re-examination reads ahead, at most, for now; for tests. */
  int lookaheadLength() {
    return lookahead.length;
  }

  /** {@code ticks * resolution}, or {@code Long.MAX_VALUE} if that is larger. */
  private long timeOfTicks(long ticks) {
    return Long.compareUnsigned(ticks, maxTicksInLong) > 0 ? Long.MAX_VALUE : ticks * resolution;
  }

  /** The number of the bin of a tick above the clock's: the highest bit where they differ. */
  private int binNumber(long tick) {
    return (BINS - 1) - Long.numberOfLeadingZeros(tick ^ nowTick);
  }

  /** The bin of a tick above the clock's, marked occupied: a timer is about to be put there. */
  private TimerBucket<T> binOf(long tick) {
    return bin(binNumber(tick));
  }

  /**
   * Bin {@code bin}, which does not hold timers by id, marked occupied and as holding timers by
   * reference: a timer is about to be put there.
   */
  private TimerBucket<T> bin(int bin) {
    occupied |= 1L << bin;
    idLayout &= ~(1L << bin);
    TimerBucket<T> bucket = bins[bin];
    return bucket != null ? bucket : (bins[bin] = new TimerBucket<>(this, bin));
  }

  /**
   * Whether bin {@code bin} holds timers, and holds them by id; false for {@link TimerBucket#DUE},
   * which shifts to bit 63, a bin that never holds timers by id.
   */
  boolean isIdBin(int bin) {
    return ((occupied & idLayout) & (1L << bin)) != 0;
  }

  /**
   * Whether the low bins may take {@code incoming} more timers by id: if they then hold at most an
   * eighth of the queue's timers plus {@link #freeHeld}, a timer held by id costing 12 bytes more
   * than one held by reference, 1.5 bytes per timer at most beyond the first 16 KB.
   */
  private boolean mayHoldById(int incoming) {
    return low.held() + incoming <= (size >>> 3) + freeHeld;
  }

  /**
   * {@link #file} into a bin that holds timers by id: by id if the bound allows, else by reference,
   * after the bin has moved all its timers into its bucket. Then completes the last cancel's
   * removal.
   */
  private void fileById(HiTimeTimer<T> timer, long tick) {
    int bin = binNumber(tick);
    if (mayHoldById(1)) {
      low.add(bin, timer, tick);
    } else {
      holdByReference(bin);
      // The bucket has just taken the bin's timers and holds no slot that the last cancel left,
      // so it may make room before that cancel is settled.
      bin(bin).appendOutOfOrder(timer);
    }
    settle();
  }

  /**
   * Moves every timer of bin {@code bin}, which holds timers by id, into its bucket of references,
   * in order: the bin then holds them by reference until it empties.
   */
  private void holdByReference(int bin) {
    IdBin from = low.bins[bin];
    TimerBucket<T> to = bin(bin);
    int[] entries = from.entries;
    HiTimeTimer<T>[] byId = low.byId;
    for (int i = 0, end = from.tail; i < end; i += 2) {
      int id = entries[i];
      if (byId[id] == null) {
        low.freeStale(id);
      } else {
        to.appendOutOfOrder(low.take(id));
      }
    }
    IdBins.emptied(from);
  }

  /**
   * Appends a run of timers, or of holes if {@code bucket} is {@code null}, to {@code bucket}; if
   * they come from a bin in tick order, the bucket learns their ticks, so that a bin in order
   * stays in order.
   */
  private void fileRun(
      TimerBucket<T> bucket, HiTimeTimer<T>[] slots, int start, int count, boolean inOrder) {
    if (bucket != null && count != 0) {
      if (inOrder) {
        long lastTick = tickOf(slots[start + count - 1]);
        bucket.appendRun(slots, start, count, tickOf(slots[start]), lastTick);
      } else {
        bucket.appendRun(slots, start, count);
      }
    }
  }

  /**
   * The bucket that holds a pending timer: the bin of the highest bit in which its tick differs
   * from the clock's, or, if its slot says it is due, the due bucket if that slot of it holds the
   * timer, else the firing bucket.
   */
  TimerBucket<T> bucketOf(HiTimeTimer<T> timer) {
    int slot = timer.slot;
    if ((slot & HiTimeTimer.DUE_SLOT) != 0) {
      return dueBucketOf(timer, slot);
    }
    return bins[binNumber(tickOf(timer))];
  }

  /**
   * Of the due and the firing bucket, the one whose {@code slot} (a timer's, marked due) holds
   * {@code timer}.
   */
  private TimerBucket<T> dueBucketOf(HiTimeTimer<T> timer, int slot) {
    HiTimeTimer<T>[] dueSlots = due.slots;
    int index = slot & HiTimeTimer.SLOT_INDEX;
    return index < dueSlots.length && dueSlots[index] == timer ? due : firing;
  }

  /**
   * The tick at which a timer in a bin is due: its deadline's distance from the start time,
   * rounded up to a tick. While a timer waits in a bin its deadline is less than a tick behind the
   * clock or ahead of it, so that distance is {@code elapsed} plus the signed distance from now,
   * saturated at the end of the clock exactly when it was saturated at arming: the tick that the
   * timer was filed with.
   */
  long tickOf(HiTimeTimer<?> timer) {
    return tickOf(timer.deadline());
  }

  /**
   * {@link #tickOf(HiTimeTimer)} of a timer with this deadline, or the tick of a deadline ahead of
   * the clock.
   *
   * <p>While the clock is less than 2<sup>63</sup> units from its start, no distance from the start
   * time was ever saturated, as none of a deadline ahead can pass 2<sup>64</sup> - 1; the distance
   * is then the deadline minus the start time, modulo 2<sup>64</sup>, and it is at least 1, since
   * the tick of the timer is above the clock's. With a power of two for the resolution, it is
   * rounded up to a tick with a shift: {@code ceil(key / 2^s) = ((key - 1) >>> s) + 1} for a key
   * of 1 or more. That spares a reschedule, which works out two ticks, the unsigned comparison of
   * the saturation and the multiplication that tests whether the key starts a tick.
   */
  long tickOf(long deadline) {
    int shift = tickShift;
    if (shift >= 0) {
      return ((deadline - startTime - 1) >>> shift) + 1;
    }
    long distance = deadline - now;
    return ceilTick(distance > 0 ? keyAhead(elapsed, distance) : elapsed + distance);
  }

  /**
   * The unsigned distance from the start time of a point {@code distance > 0} beyond {@code from},
   * saturating at 2<sup>64</sup> - 1, the end of the clock.
   */
  private static long keyAhead(long from, long distance) {
    long key = from + distance;
    return Long.compareUnsigned(key, from) < 0 ? -1L : key;
  }

  /** The tick that an unsigned distance from the start time lies in. */
  private long floorTick(long key) {
    return resolutionShift >= 0 ? key >>> resolutionShift : Long.divideUnsigned(key, resolution);
  }

  /** The first tick that starts at or after an unsigned distance from the start time. */
  private long ceilTick(long key) {
    long tick = floorTick(key);
    return tick * resolution == key ? tick : tick + 1;
  }
}
