package io.github.timerqueue.lawn;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TimerRingTest {
  private final LawnTimerQueue<String> owner = new LawnTimerQueue<>(TimerConfig.defaults());

  private LawnTimer<String> timer(String payload) {
    return new LawnTimer<>(owner.armedDue, payload);
  }

  /** The payloads first to last, after checking the ring's structure. */
  private static List<String> contents(TimerRing<String> ring) {
    List<String> payloads = new ArrayList<>();
    for (LawnTimer<String> timer : LawnInvariants.checkRing(ring)) {
      payloads.add(timer.payload);
    }
    return payloads;
  }

  /** Appends {@code count} new timers, t0 to t(count - 1), and returns them in that order. */
  private List<LawnTimer<String>> appendNew(TimerRing<String> ring, int count) {
    List<LawnTimer<String>> timers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      timers.add(timer("t" + i));
      ring.append(timers.get(i));
    }
    return timers;
  }

  /** How many slots refer to a timer, stale ones included. */
  private static long referencedSlots(TimerRing<String> ring) {
    return Arrays.stream(ring.slots).filter(Objects::nonNull).count();
  }

  @Test
  void appendKeepsArrivalOrderAndRemoveTakesFromAnywhere() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    LawnTimer<String> a = timer("a");
    LawnTimer<String> b = timer("b");
    LawnTimer<String> c = timer("c");
    LawnTimer<String> d = timer("d");
    List.of(a, b, c, d).forEach(ring::append);
    assertThat(contents(ring)).containsExactly("a", "b", "c", "d");

    assertThat(ring.remove(b)).as("b was first").isFalse();
    assertThat(contents(ring)).containsExactly("a", "c", "d");
    assertThat(ring.remove(a)).as("a was first").isTrue();
    assertThat(contents(ring)).containsExactly("c", "d");
    assertThat(ring.remove(d)).as("d was first").isFalse();
    assertThat(contents(ring)).containsExactly("c");
    assertThat(ring.remove(c)).as("c was first").isTrue();
    assertThat(contents(ring)).isEmpty();
    assertThat(List.of(a, b, c, d)).noneMatch(LawnTimer::isPending);
    assertThat(referencedSlots(ring)).isZero();
  }

  @Test
  void aRemovedTimerLeavesOnlyAStaleSlotUntilTheHeadPassesIt() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    LawnTimer<String> a = timer("a");
    LawnTimer<String> b = timer("b");
    List.of(a, b, timer("c")).forEach(ring::append);

    ring.remove(b);
    assertThat(ring.slots).contains(b); // written to b alone: the slot is stale, not emptied
    assertThat(contents(ring)).containsExactly("a", "c");

    ring.remove(a);
    assertThat(ring.slots).doesNotContain(a, b);
    assertThat(ring.first().payload).isEqualTo("c");
  }

  @Test
  void passingTheHeadSweepsTheStaleSlotsAheadOfItOneStretchAtATime() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    List<LawnTimer<String>> timers = appendNew(ring, 3 * TimerRing.SWEEP_SLOTS);
    LawnTimer<String> nearHead = timers.get(2);
    LawnTimer<String> beyondSweep = timers.get(TimerRing.SWEEP_SLOTS + 2);
    ring.remove(nearHead);
    ring.remove(beyondSweep);
    assertThat(ring.slots).contains(nearHead, beyondSweep);

    ring.removeFirst();
    assertThat(ring.first()).isSameAs(timers.get(1));
    assertThat(ring.slots).as("swept with the first stretch").doesNotContain(nearHead);
    assertThat(ring.slots).as("beyond the first stretch").contains(beyondSweep);

    // The first stretch began behind the first head that left: t1 to t16.
    while (ring.first() != timers.get(TimerRing.SWEEP_SLOTS)) {
      ring.removeFirst();
    }
    assertThat(ring.slots).as("not swept before the head reached the stretch")
        .contains(beyondSweep);
    ring.removeFirst();
    assertThat(ring.slots).as("swept once the head reached it").doesNotContain(beyondSweep);
    assertThat(contents(ring)).hasSize(2 * TimerRing.SWEEP_SLOTS - 2)
        .doesNotContain(beyondSweep.payload);
  }

  @Test
  void aRingThatDoesNotSweepAheadKeepsStaleSlotsUntilTheHeadPassesThem() {
    TimerRing<String> ring = new TimerRing<>(owner, false);
    List<LawnTimer<String>> timers = appendNew(ring, 4);
    ring.remove(timers.get(2));

    ring.removeFirst();

    assertThat(ring.slots).contains(timers.get(2));
    assertThat(contents(ring)).containsExactly("t1", "t3");
  }

  @Test
  void aTimerThatLeavesAndJoinsAgainIsInTheRingOnceAtTheTail() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    LawnTimer<String> b = timer("b");
    List.of(timer("a"), b, timer("c")).forEach(ring::append);

    ring.remove(b);
    ring.append(b);

    assertThat(contents(ring)).containsExactly("a", "c", "b");
    assertThat(ring.last()).isSameAs(b);
  }

  @Test
  void aFullRingWithFewTimersIsCompactedInPlaceInOrder() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    List<LawnTimer<String>> timers = appendNew(ring, 16);
    int capacity = ring.slots.length;
    assertThat(capacity).isEqualTo(16);
    for (int i = 1; i < 15; i++) {
      if (i != 7) {
        ring.remove(timers.get(i));
      }
    }
    assertThat(ring.tail - ring.head).as("every slot in use").isEqualTo(capacity);

    ring.append(timer("new"));

    assertThat(ring.slots).hasSize(capacity);
    assertThat(ring.tail - ring.head).isEqualTo(4);
    assertThat(contents(ring)).containsExactly("t0", "t7", "t15", "new");
    assertThat(referencedSlots(ring)).isEqualTo(4);
  }

  @Test
  void aFullRingWithManyTimersDoublesInOrder() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < TimerRing.INITIAL_CAPACITY; i++) {
      ring.append(timer("t" + i));
      expected.add("t" + i);
    }
    ring.append(timer("more"));
    expected.add("more");

    assertThat(ring.slots).hasSize(2 * TimerRing.INITIAL_CAPACITY);
    assertThat(contents(ring)).containsExactlyElementsOf(expected);
  }

  @Test
  void aLargeRingWhoseHeadPassedMostOfItsTimersGivesItsSlotsBack() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    List<LawnTimer<String>> timers = appendNew(ring, 8 * TimerRing.RETAINED_CAPACITY);
    assertThat(ring.slots).hasSize(8 * TimerRing.RETAINED_CAPACITY);

    while (ring.size > 100) {
      ring.removeFirst();
    }

    assertThat(ring.slots.length).isLessThanOrEqualTo(TimerRing.RETAINED_CAPACITY);
    assertThat(contents(ring)).hasSize(100)
        .containsExactlyElementsOf(timers.subList(timers.size() - 100, timers.size()).stream()
            .map(timer -> timer.payload).toList());
  }

  @Test
  void cancelledSlotsNeverGrowARingBeyondEightSlotsPerTimerItHeldAtOnce() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    List<LawnTimer<String>> timers = appendNew(ring, 3_000);
    SplittableRandom random = new SplittableRandom(42);
    int mostHeld = ring.size;
    int mostSlots = ring.slots.length;

    // Cancel a random timer and arm it again at the tail, as a session timeout that is pushed back
    // does: a stale slot in the middle for every timer that joins.
    for (int op = 0; op < 300_000; op++) {
      LawnTimer<String> timer = timers.get(random.nextInt(timers.size()));
      if (timer.isPending()) {
        ring.remove(timer);
      }
      if (random.nextInt(4) != 0 || ring.size < 100) {
        ring.append(timer);
      }
      mostHeld = Math.max(mostHeld, ring.size);
      mostSlots = Math.max(mostSlots, ring.slots.length);
    }

    assertThat(mostSlots).isLessThan(8 * mostHeld);
    assertThat(ring.slots.length).isLessThanOrEqualTo(Math.max(
        TimerRing.RETAINED_CAPACITY, 8 * Integer.highestOneBit(ring.tail - ring.head)));
    LawnInvariants.checkRing(ring);
  }

  @Test
  void removeAllLeavesNoTimerPendingAndNoSlotReferenced() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    List<LawnTimer<String>> timers = List.of(timer("a"), timer("b"), timer("c"));
    timers.forEach(ring::append);
    ring.remove(timers.get(1));

    ring.removeAll();

    assertThat(contents(ring)).isEmpty();
    assertThat(timers).noneMatch(LawnTimer::isPending);
    assertThat(referencedSlots(ring)).isZero();
  }

  @Test
  void releaseDropsTheSlotsOfAnEmptyRingThatGrewLarge() {
    TimerRing<String> small = new TimerRing<>(owner, true);
    TimerRing<String> large = new TimerRing<>(owner, true);
    for (int i = 0; i <= TimerRing.RETAINED_CAPACITY; i++) {
      large.append(timer("t" + i));
    }
    large.removeAll();
    LawnTimer<String>[] smallSlots = small.slots;

    small.release();
    large.release();

    assertThat(small.slots).isSameAs(smallSlots);
    assertThat(large.slots).hasSize(TimerRing.INITIAL_CAPACITY);
  }

  @Test
  void atTheTicketLimitTheTicketsAreLoweredAndEveryTimerKeepsItsSlotAndPlace() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    ring.startTicketsAt(TimerRing.TICKET_LIMIT - 6);
    List<LawnTimer<String>> timers = appendNew(ring, 4);
    ring.remove(timers.get(1));
    // t2 leaves and joins again: its old slot is stale but still refers to it.
    ring.remove(timers.get(2));
    ring.append(timers.get(2));
    LawnTimer<String> t4 = timer("t4");
    ring.append(t4);
    assertThat(ring.tail).isEqualTo(TimerRing.TICKET_LIMIT);
    LawnTimer<String>[] slotsBefore = ring.slots.clone();

    LawnTimer<String> t5 = timer("t5");
    ring.append(t5);

    assertThat(ring.head).isBetween(0, ring.slots.length - 1);
    assertThat(contents(ring)).containsExactly("t0", "t3", "t2", "t4", "t5");
    slotsBefore[t5.ticket & (ring.slots.length - 1)] = t5;
    assertThat(ring.slots).as("no timer moved").containsExactly(slotsBefore);
    assertThat(ring.remove(timers.get(3))).isFalse();
    assertThat(ring.removeFirst()).isSameAs(timers.get(0));
    assertThat(contents(ring)).containsExactly("t2", "t4", "t5");
  }

  @ParameterizedTest(name = "sweepsAhead={0}, first ticket={1}")
  @CsvSource({"true, 0", "false, 0", "true, 2147483000", "false, 2147483000"})
  void randomAppendsAndRemovalsAgreeWithAList(boolean sweepsAhead, int firstTicket) {
    SplittableRandom random = new SplittableRandom(42);
    TimerRing<String> ring = new TimerRing<>(owner, sweepsAhead);
    ring.startTicketsAt(firstTicket);
    List<LawnTimer<String>> model = new ArrayList<>();
    List<LawnTimer<String>> all = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      all.add(timer("t" + i));
    }
    for (int step = 0; step < 20_000; step++) {
      LawnTimer<String> timer = all.get(random.nextInt(all.size()));
      // Phases of growth and of shrinking, so that the ring both doubles and compacts.
      boolean growing = (step / 500) % 2 == 0;
      if (timer.isPending()) {
        boolean wasFirst = model.get(0) == timer;
        assertThat(ring.remove(timer)).isEqualTo(wasFirst);
        model.remove(timer);
        if (growing || random.nextInt(4) == 0) {
          ring.append(timer);
          model.add(timer);
        }
      } else if (growing || random.nextInt(4) == 0) {
        ring.append(timer);
        model.add(timer);
      } else if (!model.isEmpty()) {
        assertThat(ring.removeFirst()).isSameAs(model.remove(0));
      }
      assertThat(LawnInvariants.checkRing(ring)).containsExactlyElementsOf(model);
    }
  }
}
