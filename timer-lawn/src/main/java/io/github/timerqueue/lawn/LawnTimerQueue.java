package io.github.timerqueue.lawn;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.spi.AbstractTimerQueue;
import io.github.timerqueue.spi.TimerQueueChecks;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The {@code lawn} strategy: Lev-Libfeld's TTL-bucketed timer store, one first-in, first-out queue
 * per distinct TTL, with the queues' heads kept in a heap so that nothing ever visits every queue.
 *
 * <h2>When to choose it</h2>
 * When timers are many and their TTLs (deadline minus the time of scheduling) are few: session and
 * request timeouts, retransmission timers, caches with a handful of expiry policies, sliding
 * windows, rate limiters. That is the paper's assumption, {@code distinct TTLs << pending timers}.
 * Then scheduling a timer is appending it to an existing queue (one hash probe, no ordering work),
 * cancelling it is marking the timer alone as out of its queue, and expiring is taking heads: all
 * {@code O(1)}, with no cascading and no limit on how far ahead a deadline may lie.
 *
 * <p>What it costs when the assumption does not hold: with {@code Q} queues, creating or emptying
 * one, and removing a queue's head (by cancel or reschedule), costs {@code O(log Q)} in the index.
 * Beyond {@value #TTL_QUEUES} distinct TTLs, a timer whose TTL has no queue joins one of the
 * queues that such timers share, found by a binary search among them ({@link SharedQueues}); with
 * one TTL per timer, random deadlines, {@code n} timers need about {@code 2 sqrt(n)} shared
 * queues. So the lawn degrades to a sorted set of queues, {@code O(log Q)} per schedule and per
 * expiry, at about the memory of the paper's case, rather than to a queue per timer. Its worst
 * case is timers armed in order of decreasing expiry, each of which starts a shared queue: then
 * the lawn is a binary heap of one-timer queues, still {@code O(log n)} but at four to five times
 * the memory of {@code heap}. Pick {@code heap} or a wheel for those loads.
 *
 * <h2>Design</h2>
 * <ul>
 *   <li>Time is the unsigned distance from the start time ("elapsed"), counted in ticks of the
 *       resolution {@code r}. A timer armed in tick {@code a} (the tick holding {@code now()}) with
 *       a deadline in the future gets the TTL {@code t >= 1} that makes it expire at the start of
 *       tick {@code a + t}: its deadline rounded up to a multiple of {@code r} counted from the
 *       start time, the latest the contract allows and never early. A deadline at or before {@code
 *       now()} gets TTL 0 and expires at its deadline (or at the start time, if it lies before),
 *       so that the next {@code advance} fires it even with the same {@code now} and even between
 *       two multiples of {@code r}. An expiry is not stored: it is derived from the deadline and
 *       the queue's TTL when it is needed, when a queue gets a new head and while due timers are
 *       taken (a rounding up by bit operations when {@code r} is a power of two, by a division
 *       otherwise), which keeps a timer at 32 bytes ({@link LawnTimer}).
 *   <li>Each TTL has a queue ({@link TtlQueue}) in a map from TTL to queue that does not box its
 *       keys ({@link LongObjectMap}). Within a queue, arrival order is expiry order: two timers of
 *       TTL {@code t} armed in ticks {@code a1 <= a2} expire at {@code a1 + t <= a2 + t}. This is
 *       the paper's ordering argument, and it needs only that the clock never moves backwards.
 *       Timers of TTL 0 are all due; they keep the order they were armed in among themselves. A
 *       timer whose expiry lies past the end of the clock's range joins, whatever its TTL, one
 *       more queue, kept out of the map, whose timers all expire at the clock's last instant: a
 *       deadline rounded up then cannot stand for its expiry, so such timers must not share a
 *       queue with those whose expiry it does.
 *   <li>The non-empty queues are in an indexed heap ({@link HeadIndex}) keyed by the expiry of
 *       their heads, in place of the paper's per-tick scan of every queue. Its first entry is the
 *       paper's closest expiration, exact at all times: an {@code advance} before it returns at
 *       once, and {@link #nextExpiryDelay()} is the exact distance to it.
 *   <li>A queue that empties leaves the map and the index at once (the paper requires it; the
 *       original C implementation left empty queues behind). Up to {@value #SPARE_QUEUES} emptied
 *       queue objects are kept for the next new TTL, so a TTL whose queue empties and refills again
 *       and again allocates nothing after the first time.
 *   <li>{@code reschedule} takes the timer out of whatever ring it is in before it joins the tail
 *       of its new TTL's queue; the original C implementation's update path could leave a live
 *       timer behind in its old queue.
 *   <li>A queue keeps its timers in a ring of slots ({@link TimerRing}), not in a linked list:
 *       cancelling a timer marks the timer alone as out of its queue and writes to no other
 *       memory, where unlinking would write to both neighbours, which in a large queue are cache
 *       misses of their own. The slots it leaves stale are passed at once at either end of the
 *       ring and cleared, in the middle, by an occasional compaction whose cost is {@code O(1)}
 *       amortized per timer that joined, or by the head: it reads the timers ahead of it a
 *       stretch at a time, so that taking heads from a large queue overlaps their cache misses
 *       instead of waiting for each in turn. Cancelling a timer that is not a queue's head, and
 *       arming one in a TTL that has a queue (the paper's common case), stay on a short path: a
 *       shift of the distance for the TTL when the resolution is a power of two, one map probe,
 *       a check against the queue's precomputed span that the expiry does not saturate, one slot
 *       written. New queues, emptied queues and new heads are handled out of line.
 *   <li>An advance hands out timers straight from the head of the first queue in the index, one at
 *       a time, until it reaches its limit or no head is due: a timer that fires is taken from its
 *       queue and handed out, and one that a handler re-arms joins a tail, with no ring of due
 *       timers in between to copy it to and from. A handler may cancel or move a due timer before
 *       its turn, which simply takes it out of its queue, so an advance that fires fewer than its
 *       limit leaves no timer behind that was to fire by its {@code now}. A handler's timers armed
 *       ahead cannot be due in the running advance (their expiry lies in a later tick); those it
 *       arms with a deadline already due are set apart in a ring of their own until the advance
 *       ends, then join the queue of TTL 0, so that they wait for the next {@code advance}. If a
 *       handler throws, the timers still due stay in their queues for the next {@code advance}.
 *       While the index holds a single TTL queue (the lawn of one TTL), its due heads are handed
 *       out in a run that re-keys the queue in the index, or retires it, once at its end rather
 *       than after each head; the handlers cannot tell ({@code fireDue}).
 *   <li>Arming a timer with the TTL of the timer armed before it takes that queue without a map
 *       probe and without working out its TTL: the deadlines that queue takes from a timer armed
 *       now form one window, worked out when the clock moves or the queue changes, so the check
 *       is a subtraction and an unsigned comparison (the window is closed where that TTL's
 *       expiry would saturate, or its deadlines reach more than {@code Long.MAX_VALUE} ahead:
 *       those take the long way). A reference stored in an old object pays G1's post-write
 *       barrier (a fence, and for a card not yet dirty the refinement queue), and a long-running
 *       program's timers and rings are old: so a timer records no reference to its ring, which
 *       the lawn finds from its ticket ({@link TicketTable}), and moving it to another ring
 *       writes an {@code int} to it (a million tenured timers over sixteen TTLs, re-armed at
 *       random, cost 179 ns of thread CPU per fired timer with a reference to the ring in each
 *       timer, 69 without); re-keying a queue in the index without moving it stores no reference
 *       either. A ring that flows steadily (as with a single TTL, or a periodic timer) is
 *       trimmed to fit its timers exactly and then turns in place: the timer that leaves its head
 *       is re-armed into the very slot it left, which already refers to it, so expiring and
 *       re-arming it stores no reference at all ({@link TimerRing}, "turning in place"). The
 *       paper's queue is abstract; this ring, and what it keeps of a timer that left it, are this
 *       implementation's.
 *   <li>Where the paper gives every TTL a queue, this implementation stops at {@value
 *       #TTL_QUEUES}: a timer of any other TTL joins a queue shared with timers of other TTLs,
 *       the one whose latest timer expires the latest at or before it, so that every queue
 *       still holds its timers in order of expiry (patience sorting, {@link SharedQueues}). The
 *       paper's assumption is few TTLs; without this a load that breaks it pays a queue object,
 *       a ring and entries in the map and the index per timer, about 160 bytes, where shared
 *       queues keep it near the 40 bytes of the paper's case. The TTLs that have queues keep
 *       the paper's path unchanged; a queue whose TTL is new is made only while the map has
 *       room. Timers of one TTL armed in one tick, which expire together, may then be in
 *       different queues; the index hands out queues whose heads expire together by a rank that
 *       keeps them in the order they were armed ({@link TtlQueue#rank}).
 * </ul>
 *
 * <h2>Example</h2>
 * With resolution 10 and the clock at 5 (tick 0), {@code schedule(41)} gets TTL 5 (expiry 50, the
 * deadline rounded up); {@code schedule(100)} gets TTL 10 (expiry 100). After {@code advance(17)}
 * (tick 1), {@code schedule(52)} also gets TTL 5 (expiry 60) and joins the same queue behind the
 * first timer, which expires earlier. The index holds the TTL 5 queue keyed 50 and the TTL 10 queue
 * keyed 100: {@code nextExpiryDelay()} is 33, {@code advance(49)} returns at once, {@code
 * advance(60)} fires the two TTL 5 timers in arrival order and removes their emptied queue.
 *
 * <h2>Order</h2>
 * Timers that fire in the same {@code advance} are handed out in order of expiry (their deadline
 * rounded up to the resolution), those of one TTL in the order they were armed, whether they are
 * in the TTL's queue or in shared queues. Timers armed with
 * a deadline already due (TTL 0) are handed out in the order they were armed among themselves, and
 * among the others as if they all expired at the deadline of the first of them still waiting. The
 * order between timers of different TTLs with the same expiry is unspecified.
 *
 * <h2>Costs</h2>
 * With {@code n} pending timers in {@code Q} TTL queues, and every bound on the rings amortized
 * (compaction, and passing stale slots at a queue's ends): {@code schedule} {@code O(1)} expected,
 * or {@code O(log Q)} when it creates a queue or joins a shared one; {@code cancel} {@code O(1)}, or {@code O(log Q)} when
 * it removes a queue's head or empties a queue; {@code reschedule} the two together; {@code
 * advance} {@code O(1)} when nothing is due, otherwise {@code O(e + s log Q)} for {@code e} fired
 * timers taken from the queues in {@code s <= e} runs (a run is a stretch of one queue that expires
 * before any other queue's head; in the paper's regime, bursts of one TTL, runs are long); {@code
 * nextExpiryDelay} and {@code size} {@code O(1)}; {@code scheduleWithin} {@code O(min(w, Q))} to
 * look for a queue to join, for a range {@code w} ticks wide, then as {@code schedule}; {@code
 * clear}, {@code drain} and {@code forEach} {@code O(n + Q)} plus the stale slots in the rings.
 * Nothing is allocated but the handle by {@code schedule} and {@code scheduleWithin}, and nothing
 * at all by the other operations, except when a table or a ring grows to a size it never had, a
 * ring that lost most of its timers moves to a smaller array, or a queue is created while no spare
 * is left. Shared queues under random cancel+schedule keep doing the last two (new queues whose
 * rings grow): about 1.7 bytes per cancel+schedule pair at a million timers with random deadlines.
 *
 * <h2>Memory</h2>
 * A 32-byte handle per timer (with compressed references), plus its queue's ring: at most seven
 * slots of a reference each for every four timers the queue held at its fullest, however many
 * timers are cancelled and armed again, and one per timer once a steady flow has trimmed it,
 * plus one reference of the {@link TicketTable} per 64 ticket numbers, of which a ring holds the
 * smallest power of two above its slots, 64 at least (39.3 bytes per timer in all with one or
 * sixteen TTLs, measured at a million timers after filling and after four million
 * schedule+cancel operations, 0.3 more than a reference to the ring in each timer cost; 36 once
 * trimmed); a ring whose head has passed
 * most of its timers gives the memory back, and an emptied queue kept as a spare keeps at most
 * {@value TimerRing#RETAINED_CAPACITY} slots. With one TTL per timer,
 * the case the lawn is not for, the timers share about {@code 2 sqrt(n)} queues: 38 bytes per
 * timer in all, measured with random deadlines over four million resolutions, where a million
 * timers have 890,000 TTLs (a queue per TTL took 162); 59 after four million cancel+schedule
 * operations with the clock moving, where cancelled timers wait in stale slots for their queue's
 * compaction and the shared queues have grown from 2,000 to 4,400, since a queue's latest expiry
 * never comes down. Timers armed in order of decreasing
 * expiry, each in a shared queue of its own, take about 190 bytes each (189 measured at 200,000
 * timers, 176 before the ticket table): the queue object, its ring of two slots, its entries in
 * the index and its block of the ticket table. A
 * cancelled timer stays referenced by its stale slot until its queue's head passes it or the ring
 * is compacted (at the latest when the queue has had three sevenths of its ring's capacity of new
 * timers), and the last timer to leave the head of a full ring until the next one joins, so a
 * dropped handle is not garbage at once, as it would be in {@code heap}. A handle in
 * turn keeps the queue that owns it reachable; an emptied queue that is not kept as a spare lets
 * go of its slots and its ticket numbers.
 */
final class LawnTimerQueue<T> extends AbstractTimerQueue<T, LawnTimer<T>> {
  /** How many emptied queue objects are kept for reuse. */
  static final int SPARE_QUEUES = 64;
  /**
   * How many TTL queues (the map's) the lawn keeps before timers of a TTL that has none join
   * {@linkplain SharedQueues shared queues} instead.
   */
  static final int TTL_QUEUES = 64;

  private final long resolution;
  /** The start time, from which expiries are measured. */
  private final long startTime;
  /**
   * {@code log2(resolution)} if the resolution is a power of two, else -1: a TTL is then a shift of
   * the distance, not a division.
   */
  private final int resolutionShift;
  /** The queue's clock, and its unsigned distance from the start time. */
  private long now;
  private long elapsed;
  /** {@link #elapsed} rounded down to a multiple of the resolution: the current tick's start. */
  private long tickStart;
  /** {@code elapsed - tickStart}: how far into its tick the clock is. */
  private long intoTick;
  private int size;

  /**
   * The ring of every pending timer, by its ticket: first, as every ring takes a window of it when
   * it is made. Package-private, like the fields below, for the tests.
   */
  final TicketTable<T> tickets = new TicketTable<>();
  /** The non-empty TTL queues, by TTL. */
  final LongObjectMap<TtlQueue<T>> queuesByTtl = new LongObjectMap<>();
  /** The queues that timers of TTLs without a queue of their own share, once the map is full. */
  final SharedQueues<T> shared = new SharedQueues<>(this);
  /** The non-empty queues of the map, the shared ones and the saturated one, by their heads. */
  final HeadIndex<T> index = new HeadIndex<>();
  /**
   * Timers armed with a deadline already due by a handler of the running advance, which must not
   * fire in it: they join the queue of TTL 0 when it ends. Empty outside an advance.
   */
  final TimerRing<T> armedDue = new TimerRing<>(this, false);
  /**
   * The TTL queue the last timer was armed in, or {@code null}: arming the next timer with the
   * same TTL, a burst of one TTL or a lawn with a single TTL, then needs no map probe.
   */
  private TtlQueue<T> lastQueue;
  /**
   * The deadlines that a timer armed now would take to {@link #lastQueue}: those {@code d} for
   * which {@code d - lastWindowStart}, unsigned, is below {@code lastWindowWidth}; none while the
   * width is 0. Worked out when the clock or the last queue changes ({@link #openLastWindow}), so
   * that arming in the last queue again, every re-arm of a lawn with one TTL, is one subtraction
   * and one comparison, with no TTL to compute and no saturation to check.
   */
  private long lastWindowStart;
  private long lastWindowWidth;
  /**
   * The queue of the timers whose expiry saturates at the end of the clock's range, which is in the
   * index but not in the map; {@code null} while there are none.
   */
  TtlQueue<T> saturated;
  /** Emptied queues kept for reuse; {@code spares[0..spareCount)} are in use. */
  final TtlQueue<T>[] spares;
  int spareCount;
  private boolean advancing;

  @SuppressWarnings("unchecked")
  LawnTimerQueue(TimerConfig config) {
    this.resolution = config.resolution();
    this.resolutionShift =
        Long.bitCount(resolution) == 1 ? Long.numberOfTrailingZeros(resolution) : -1;
    this.now = config.startTime();
    this.startTime = config.startTime();
    this.spares = (TtlQueue<T>[]) new TtlQueue<?>[SPARE_QUEUES];
  }

  @Override
  public String strategy() {
    return LawnTimerQueueProvider.NAME;
  }

  @Override
  public long now() {
    return now;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The lawn is cheapest when TTLs are few, so the timer joins an existing queue when one
   * expires within the range for a timer armed now: the one with the smallest such TTL, found by
   * probing the map for each TTL of the range or by scanning the queues, whichever is shorter
   * ({@code O(min(w, Q))}). Otherwise it starts a queue whose TTL is the "roundest" in the range,
   * the one with the most trailing zero bits, so that timers with overlapping ranges arriving later
   * tend to find it; a range that includes {@code now()} is due at once, like a deadline in the
   * past. The chosen deadline is the expiry of that queue, or {@code latest} when the expiry is
   * {@code latest} rounded up to the resolution: either way the timer then behaves exactly as one
   * scheduled at the chosen deadline. A {@code latest} more than {@code Long.MAX_VALUE} ahead of
   * {@code now()} while {@code earliest} is not counts as {@code now() + Long.MAX_VALUE}: the
   * contract's signed difference would otherwise put the end of the range before its start.
   */
  @Override
  public TimerHandle<T> scheduleWithin(long earliest, long latest, T payload) {
    Objects.requireNonNull(payload, "payload");
    TimerQueueChecks.checkRange(earliest, latest);
    long earliestDistance = earliest - now;
    if (latest - now < earliestDistance) {
      // latest is more than Long.MAX_VALUE ahead: by the signed-difference rule it alone would lie
      // in the past, before an earliest that does not. Cut the range at the farthest deadline.
      latest = now + Long.MAX_VALUE;
    }
    long lowest = ttlOf(earliestDistance);
    long highest = ttlOf(latest - now);
    TtlQueue<T> existing = queueWithTtlBetween(lowest, highest);
    long ttl = existing != null ? existing.ttl : roundestBetween(lowest, highest);
    LawnTimer<T> timer = newTimer(payload);
    timer.setDeadline(deadlineOf(ttl, latest));
    enqueue(timer, ttl);
    size++;
    return timer;
  }

  /**
   * {@inheritDoc}
   *
   * <p>If it returns fewer than {@code limit}, no timer is left that was to fire by {@code now},
   * whatever the handler cancelled or re-armed, except the timers the handler armed itself.
   */
  @Override
  public int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit) {
    TimerQueueChecks.checkAdvance(onExpired, limit, advancing);
    long step = now - this.now;
    if (step > 0) {
      this.now = now;
      this.elapsed += step;
      this.intoTick = resolutionShift >= 0
          ? elapsed & (resolution - 1) : Long.remainderUnsigned(elapsed, resolution);
      this.tickStart = elapsed - intoTick;
      openLastWindow();
    }
    // The paper's closest-expiration shortcut.
    if (!anyDue()) {
      return 0;
    }
    advancing = true;
    boolean returned = false;
    try {
      int fired = fireDue(onExpired, limit);
      returned = true;
      return fired;
    } finally {
      advancing = false;
      if (!returned) {
        // A handler threw in a run, which may have left the first queue unsettled.
        settleFirst();
      }
      if (!armedDue.isEmpty()) {
        releaseArmedDue();
      }
    }
  }

  /**
   * Hands out due heads, the first in the index first, until {@code limit} fired or none is due;
   * at least one is. A method of its own, apart from {@link #advance}: an event loop advances
   * many times with nothing due, so the just-in-time compiler compiles {@code advance} early,
   * with this loop cold; here the loop is compiled with the profile of advances that fire.
   *
   * <p>While the index holds a single queue, a TTL queue (the lawn of one TTL), its heads are
   * handed out in a <em>run</em>: a head is due exactly when its deadline, from the start time,
   * lies at or before the start of the current tick (its expiry is that deadline rounded up to
   * the resolution), so the run reads only the deadline, and it neither re-keys the queue in the
   * index nor retires the queue when it empties until the run ends: with one TTL, every timer an
   * advance fires is in one run. In between, the queue stays first in the index under a stale
   * key, no later than the clock, which no other queue's key can go before: what a handler arms
   * expires after the clock (or waits in {@link #armedDue}), what it cancels only leaves, and
   * cancelling the queue's head or its last timer re-keys or removes it exactly. {@link
   * #nextExpiryDelay()} reads the key, so inside an advance it settles the first queue first
   * ({@link #settleFirst}). A handler that re-arms with the queue's TTL finds it emptied but not
   * retired and joins it. This costs a fired timer about a tenth less than re-keying after each
   * head (TtlExpireBenchmark, one TTL, a million timers).
   */
  private int fireDue(Consumer<? super TimerHandle<T>> onExpired, int limit) {
    int fired = 0;
    do {
      TtlQueue<T> queue = index.first();
      long ttl = queue.ttl;
      if (ttl > 0 && index.size() == 1) {
        long dueBy = tickStart;
        do {
          LawnTimer<T> timer = queue.removeFirst();
          size--;
          fired++;
          onExpired.accept(timer);
          // The TTL is checked again in case a handler emptied the queue and it was reused.
        } while (fired < limit && !queue.isEmpty() && queue.ttl == ttl
            && Long.compareUnsigned(queue.first().deadline() - startTime, dueBy) <= 0);
        settleFirst();
      } else {
        LawnTimer<T> timer = queue.removeFirst();
        if (queue.isEmpty()) {
          retire(queue);
        } else {
          index.headRemoved(queue);
        }
        size--;
        fired++;
        onExpired.accept(timer);
      }
    } while (fired < limit && anyDue());
    return fired;
  }

  /**
   * Settles the first queue in the index after a run of {@link #fireDue}, which may have left it
   * keyed by an earlier head or empty: retires it if it is empty, else re-keys it by its head's
   * expiry, sifting it down to where it belongs. Harmless if it is settled already.
   */
  private void settleFirst() {
    if (!index.isEmpty()) {
      TtlQueue<T> first = index.first();
      if (first.isEmpty()) {
        retire(first);
      } else {
        index.headRemoved(first);
      }
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Exact and {@code O(1)}: the distance to the expiry of the first head in the index (the
   * deadline rounded up to the resolution), capped at {@code Long.MAX_VALUE - 1}.
   */
  @Override
  public long nextExpiryDelay() {
    if (advancing) {
      // A handler asks: a run of fireDue may have left the first queue unsettled.
      settleFirst();
    }
    if (!armedDue.isEmpty()) {
      return 0;
    }
    if (index.isEmpty()) {
      return Long.MAX_VALUE;
    }
    long first = index.firstExpiry();
    if (Long.compareUnsigned(first, elapsed) <= 0) {
      return 0;
    }
    // Rounding up to the resolution can put an expiry more than Long.MAX_VALUE ahead.
    long delay = first - elapsed;
    return Long.compareUnsigned(delay, Long.MAX_VALUE - 1) > 0 ? Long.MAX_VALUE - 1 : delay;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public void clear() {
    forgetLastQueue();
    for (int position = index.size() - 1; position >= 0; position--) {
      TtlQueue<T> queue = index.get(position);
      queue.removeAll();
      if (queue.ttl != TtlQueue.SHARED) {
        unmap(queue);
        keepSpare(queue);
      }
    }
    index.clear();
    shared.clear();
    armedDue.removeAll();
    size = 0;
  }

  @Override
  public int drain(Consumer<? super TimerHandle<T>> sink) {
    Objects.requireNonNull(sink, "sink");
    TimerQueueChecks.checkNotInHandler(advancing, "drain");
    int drained = 0;
    while (true) {
      LawnTimer<T> timer;
      if (!index.isEmpty()) {
        // The tail of the last queue in the index: its head, and so its key, stays put unless it
        // was the only timer, and then the queue leaves the index from the last position, which
        // needs no sifting.
        TtlQueue<T> queue = index.get(index.size() - 1);
        timer = queue.last();
        queue.remove(timer);
        if (queue.isEmpty()) {
          retire(queue);
        }
      } else {
        return drained;
      }
      size--;
      drained++;
      sink.accept(timer);
    }
  }

  @Override
  public void forEach(Consumer<? super TimerHandle<T>> action) {
    Objects.requireNonNull(action, "action");
    for (int position = 0; position < index.size(); position++) {
      index.get(position).forEach(action);
    }
    armedDue.forEach(action);
  }

  @Override
  public String toString() {
    return "LawnTimerQueue{now=" + now + ", size=" + size + ", ttls=" + index.size() + "}";
  }


  /** The unsigned distance of the clock from the start time: for the invariant checks of tests. */
  long elapsed() {
    return elapsed;
  }

  /** The resolution: for the invariant checks of the tests. */
  long resolution() {
    return resolution;
  }

  /**
   * When a timer of a queue of {@code ttl} (or {@link TtlQueue#SATURATED}) expires, as an unsigned
   * distance from the start time, derived from its deadline (see {@link TtlQueue#expiryOf}): for
   * a TTL of at least 1, the deadline rounded up to the resolution, which is exactly the start of
   * the tick {@code ttl} ticks after the one the timer was armed in, and never saturates, because
   * timers whose expiry would are in the saturated queue; for TTL 0 the deadline, which was due
   * when the timer was armed, or the start time for a deadline before it.
   */
  long expiryOf(long deadline, long ttl) {
    long fromStart = deadline - startTime;
    if (ttl > 0 || ttl == TtlQueue.SHARED) {
      // At least 1: the deadline was ahead of the clock when the timer was armed. With a power of
      // two, rounding up is setting the bits below the resolution and adding one: no shift and
      // no multiplication on the path of every head an advance takes.
      return resolutionShift >= 0
          ? ((fromStart - 1) | (resolution - 1)) + 1 : ticksRoundedUp(fromStart) * resolution;
    }
    if (ttl == 0) {
      // A deadline before the start time wraps around to beyond the clock.
      return Long.compareUnsigned(fromStart, elapsed) <= 0 ? fromStart : 0;
    }
    return -1L;
  }

  /** The ring a pending timer is in. */
  TimerRing<T> ringOf(LawnTimer<T> timer) {
    return tickets.ringOf(timer.ticket);
  }

  @Override
  protected LawnTimer<T> newTimer(T payload) {
    return new LawnTimer<>(this, payload);
  }

  @Override
  protected LawnTimer<T> ownedOrNull(TimerHandle<T> timer) {
    return timer instanceof LawnTimer<T> owned && owned.owner == this ? owned : null;
  }

  /**
   * Takes a pending timer out of its queue: {@code O(1)}, {@code O(log Q)} when it was the head of
   * its queue. What {@code cancel} does, and {@code reschedule} before it arms the timer again at
   * the tail of its new TTL's queue.
   */
  @Override
  protected void remove(LawnTimer<T> timer) {
    size--;
    TimerRing<T> ring = ringOf(timer);
    if (ring.remove(timer)) {
      firstLeft(ring);
    }
  }

  /**
   * Puts a timer that is in no ring in the queue of its deadline's TTL. The common case, a deadline
   * ahead whose TTL has a queue, is kept short enough to be inlined into the callers; the rest is
   * {@link #enqueue}. {@code O(1)} expected, {@code O(log Q)} if no pending timer has that TTL yet.
   */
  @Override
  protected void arm(LawnTimer<T> timer, long deadline) {
    size++;
    timer.setDeadline(deadline);
    if (inLastWindow(deadline)) {
      lastQueue.append(timer);
    } else {
      armOutsideLastWindow(timer, deadline);
    }
  }

  /** Whether a timer armed now at {@code deadline} joins {@link #lastQueue}. */
  private boolean inLastWindow(long deadline) {
    return Long.compareUnsigned(deadline - lastWindowStart, lastWindowWidth) < 0;
  }

  /**
   * {@link #arm} for a deadline that the last queue's window does not take: by the TTL queue of
   * the deadline found in the map, which becomes the last queue, or {@link #enqueue}.
   */
  private void armOutsideLastWindow(LawnTimer<T> timer, long deadline) {
    long distance = deadline - now;
    if (distance > 0) {
      long ttl = ttlAhead(distance);
      TtlQueue<T> queue = queuesByTtl.get(ttl);
      if (queue != null && !saturates(queue.span)) {
        queue.append(timer);
        if (queue != lastQueue) {
          // A reference store pays the garbage collector's write barrier: skip it when the queue
          // is the last one already (its window closed, say).
          lastQueue = queue;
          openLastWindow();
        }
        return;
      }
      enqueue(timer, ttl);
    } else {
      enqueue(timer, 0);
    }
  }

  /**
   * Works out the window of {@link #lastQueue} for the clock as it is: a deadline {@code distance}
   * ahead has the queue's TTL {@code t >= 1} when {@code intoTick + distance} lies in {@code ((t -
   * 1) r, t r]}, and is ahead when {@code distance} lies in {@code [1, Long.MAX_VALUE]}. No window
   * for a queue that is not of a TTL of at least 1, or whose timers armed now would saturate, or
   * whose window would reach past {@code Long.MAX_VALUE} ahead: those deadlines take the long way.
   */
  private void openLastWindow() {
    TtlQueue<T> queue = lastQueue;
    lastWindowWidth = 0;
    if (queue == null || queue.ttl <= 0 || saturates(queue.span)) {
      return;
    }
    long last = queue.span - intoTick;
    if (Long.compareUnsigned(last, Long.MAX_VALUE) > 0) {
      return;
    }
    long first = queue.ttl == 1 ? 1 : last - resolution + 1;
    lastWindowStart = now + first;
    lastWindowWidth = last - first + 1;
  }

  /** Forgets {@link #lastQueue}, as when it is retired. */
  private void forgetLastQueue() {
    lastQueue = null;
    lastWindowWidth = 0;
  }

  /**
   * The TTL of a deadline {@code distance} ahead of the clock: 0 if it is due, else the number of
   * ticks from the start of the current tick to the deadline, rounded up.
   */
  private long ttlOf(long distance) {
    return distance <= 0 ? 0 : ttlAhead(distance);
  }

  /** {@link #ttlOf} a {@code distance >= 1}. */
  private long ttlAhead(long distance) {
    // Below 2^64: the offset into the tick is under the resolution, and both are below 2^63.
    return ticksRoundedUp(intoTick + distance);
  }

  /**
   * {@code value} divided by the resolution, rounded up, for an unsigned {@code value} of at least
   * 1: {@code (value - 1) / resolution + 1}, a shift when the resolution is a power of two.
   */
  private long ticksRoundedUp(long value) {
    long below = value - 1;
    return (resolutionShift >= 0
        ? below >>> resolutionShift : Long.divideUnsigned(below, resolution)) + 1;
  }

  /**
   * When a timer armed now with a TTL of at least 1 would expire (unsigned): the start of the tick
   * {@code ttl} ticks ahead, saturating at the end of the clock's range.
   */
  private long expiryIfArmedNow(long ttl) {
    long span = TtlQueue.spanOf(ttl, resolution);
    return saturates(span) ? -1L : tickStart + span;
  }

  /**
   * Whether a timer armed now in a queue with this {@link TtlQueue#span} would expire past the end
   * of the clock's range: the sum overflows (a saturated span makes it overflow too).
   */
  private boolean saturates(long span) {
    return Long.compareUnsigned(tickStart + span, tickStart) < 0;
  }

  /**
   * Appends a timer that is in no ring to the queue of a TTL, creating the queue if needed, or to
   * the saturated queue if its expiry saturates.
   */
  private void enqueue(LawnTimer<T> timer, long ttl) {
    if (ttl == 0 && advancing) {
      armedDue.append(timer);
      return;
    }
    if (ttl != 0 && saturates(TtlQueue.spanOf(ttl, resolution))) {
      if (saturated == null) {
        saturated = newQueue(TtlQueue.SATURATED, timer);
      } else {
        saturated.append(timer);
      }
      return;
    }
    TtlQueue<T> queue = queuesByTtl.get(ttl);
    if (queue != null) {
      // Joining the tail of a non-empty queue leaves its head, and so the index, as it is.
      queue.append(timer);
    } else if (ttl == 0 || queuesByTtl.size() < TTL_QUEUES) {
      queuesByTtl.put(ttl, newQueue(ttl, timer));
    } else {
      joinShared(timer, tickStart + TtlQueue.spanOf(ttl, resolution));
    }
  }

  /** Starts a queue of {@code ttl} with {@code timer} and puts it in the index. */
  private TtlQueue<T> newQueue(long ttl, LawnTimer<T> timer) {
    TtlQueue<T> queue = spareOrNew();
    queue.assign(ttl, resolution);
    queue.append(timer);
    index.add(queue);
    return queue;
  }

  /**
   * Appends a timer that expires at {@code expiry} (and does not saturate) to the shared queue it
   * belongs in, starting one if none fits; a queue it fills again goes back in the index.
   */
  private void joinShared(LawnTimer<T> timer, long expiry) {
    TtlQueue<T> queue = shared.queueFor(expiry);
    if (queue == null) {
      queue = spareOrNew();
      shared.start(queue, expiry);
    }
    boolean refills = queue.isEmpty();
    queue.append(timer);
    if (refills) {
      index.add(queue);
    }
  }

  private TtlQueue<T> spareOrNew() {
    return spareCount > 0 ? takeSpare() : new TtlQueue<>(this);
  }

  /**
   * Upkeep after the first timer of a ring left it: a TTL queue that emptied is retired, and one
   * with a new head is re-keyed in the index. Rare (one timer in a queue's length), so it is kept
   * out of the cancel and reschedule paths.
   */
  private void firstLeft(TimerRing<T> ring) {
    if (ring instanceof TtlQueue<T> queue) {
      if (queue.isEmpty()) {
        retire(queue);
      } else {
        index.headRemoved(queue);
      }
    }
  }

  /** Whether the head of some queue is due: the first in the index expires by the clock. */
  private boolean anyDue() {
    return !index.isEmpty() && Long.compareUnsigned(index.firstExpiry(), elapsed) <= 0;
  }

  /**
   * Moves the timers that handlers of the advance just ended armed due to the queue of TTL 0, in
   * the order they were armed, behind the due timers armed before.
   */
  private void releaseArmedDue() {
    do {
      enqueue(armedDue.removeFirst(), 0);
    } while (!armedDue.isEmpty());
  }

  /**
   * Takes an emptied queue out of the index, and out of the map, keeping it for reuse if room is
   * left; an emptied shared queue stays among the shared ones.
   */
  private void retire(TtlQueue<T> queue) {
    if (queue == lastQueue) {
      forgetLastQueue();
    }
    index.remove(queue);
    if (queue.ttl == TtlQueue.SHARED) {
      shared.emptied(queue);
    } else {
      unmap(queue);
      keepSpare(queue);
    }
  }

  /** Takes a queue that is emptied out of the map, or out of {@link #saturated}. */
  private void unmap(TtlQueue<T> queue) {
    if (queue.ttl == TtlQueue.SATURATED) {
      saturated = null;
    } else {
      queuesByTtl.remove(queue.ttl);
    }
  }

  /** Keeps an emptied queue, in no map and no index, for reuse if room is left. */
  void keepSpare(TtlQueue<T> queue) {
    if (spareCount < spares.length) {
      queue.release();
      spares[spareCount++] = queue;
    } else {
      queue.discard();
    }
  }

  private TtlQueue<T> takeSpare() {
    TtlQueue<T> queue = spares[--spareCount];
    spares[spareCount] = null;
    return queue;
  }

  /**
   * An existing queue whose TTL is in {@code [lowest, highest]}, the smallest such, or {@code
   * null}: by probing the map for each TTL of the range when it is narrower than the number of
   * queues, else by scanning the queues.
   */
  private TtlQueue<T> queueWithTtlBetween(long lowest, long highest) {
    int queues = index.size();
    if (Long.compareUnsigned(highest - lowest, queues) < 0) {
      for (long ttl = lowest; ; ttl++) {
        TtlQueue<T> queue = queuesByTtl.get(ttl);
        if (queue != null || ttl == highest) {
          return queue;
        }
      }
    }
    TtlQueue<T> smallest = null;
    for (int position = 0; position < queues; position++) {
      TtlQueue<T> queue = index.get(position);
      if (queue.ttl >= lowest && queue.ttl <= highest
          && (smallest == null || queue.ttl < smallest.ttl)) {
        smallest = queue;
      }
    }
    return smallest;
  }

  /**
   * The TTL in {@code [lowest, highest]} with the most trailing zero bits: {@code highest} with
   * every bit below the highest bit in which it differs from {@code lowest - 1} cleared. That bit
   * is set in {@code highest} and clear in {@code lowest - 1}, so the result is in the range.
   */
  private static long roundestBetween(long lowest, long highest) {
    if (lowest == 0) {
      return 0;
    }
    return highest & -Long.highestOneBit((lowest - 1) ^ highest);
  }

  /**
   * The deadline reported for a timer given a TTL chosen by {@code scheduleWithin}: its expiry as a
   * time, or {@code latest} if the expiry is only {@code latest} rounded up (or {@code latest}
   * itself when the whole range is due).
   */
  private long deadlineOf(long ttl, long latest) {
    long latestDistance = latest - now;
    if (ttl == 0) {
      return latestDistance <= 0 ? latest : now;
    }
    long distance = expiryIfArmedNow(ttl) - elapsed;
    return Long.compareUnsigned(distance, latestDistance) <= 0 ? now + distance : latest;
  }
}
