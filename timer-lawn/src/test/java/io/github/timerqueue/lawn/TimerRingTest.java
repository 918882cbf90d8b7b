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
    return new LawnTimer<>(owner, payload);
  }

  /** The payloads first to last, after checking the ring's structure. */
  private static List<String> contents(TimerRing<String> ring) {
    List<String> payloads = new ArrayList<>();
    for (LawnTimer<String> timer : LawnInvariants.checkRing(ring)) {
      payloads.add(timer.payload());
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
  void cancellingMostTimersFromTheMiddleDropsTheirSlotsWithoutAnAppend() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    List<LawnTimer<String>> timers = appendNew(ring, 4_000);
    int grown = ring.slots.length;
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < timers.size(); i++) {
      if (i == 0 || i == timers.size() - 1 || i % 10 == 0) {
        kept.add(timers.get(i).payload());
      } else {
        ring.remove(timers.get(i));
      }
    }

    assertThat(contents(ring)).containsExactlyElementsOf(kept);
    assertThat(ring.slots.length).as("moved to a smaller array").isLessThan(grown / 2);
    assertThat(ring.tail - ring.head).as("tickets in use")
        .isLessThanOrEqualTo(4 * kept.size() + TimerRing.SWEEP_SLOTS);
    assertThat(referencedSlots(ring)).as("cancelled timers no longer referenced")
        .isLessThanOrEqualTo(4L * kept.size() + TimerRing.SWEEP_SLOTS);
    LawnTimer<String> late = timer("late");
    ring.append(late);
    kept.add("late");
    assertThat(contents(ring)).containsExactlyElementsOf(kept);
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
    List.of(a, b, timer("c"), timer("d")).forEach(ring::append);
    assertThat(ring.tail - ring.head).as("not full").isLessThan(ring.slots.length);

    ring.remove(b);
    assertThat(ring.slots).contains(b); // written to b alone: the slot is stale, not emptied
    assertThat(contents(ring)).containsExactly("a", "c", "d");

    ring.remove(a);
    assertThat(ring.slots).doesNotContain(a, b);
    assertThat(ring.first().payload()).isEqualTo("c");
  }

  @Test
  void aFullRingTurnsInPlaceAndItsLastHeadStaysOnlyUntilTheNextAppend() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    List<LawnTimer<String>> timers = appendNew(ring, 14);
    assertThat(ring.tail - ring.head).as("full").isEqualTo(ring.slots.length);
    LawnTimer<String>[] slots = ring.slots;
    LawnTimer<String>[] before = slots.clone();

    // The head leaves and joins again, as a periodic timer does: its slot is the tail's.
    for (int turn = 0; turn < 3 * timers.size(); turn++) {
      LawnTimer<String> head = ring.removeFirst();
      assertThat(ring.slots).as("the tail's next slot").contains(head);
      LawnInvariants.checkRing(ring);
      ring.append(head);
    }
    assertThat(ring.slots).as("turned in place").isSameAs(slots).containsExactly(before);
    assertThat(contents(ring)).containsExactlyElementsOf(
        timers.stream().map(timer -> timer.payload()).toList());

    // A head that does not come back is overwritten by the next timer that joins.
    LawnTimer<String> gone = ring.removeFirst();
    LawnTimer<String> other = timer("other");
    ring.append(other);
    assertThat(ring.slots).doesNotContain(gone).contains(other);
    assertThat(ring.slots).isSameAs(slots);

    // Or dropped when the tail falls back, or when the ring empties.
    LawnTimer<String> alsoGone = ring.removeFirst();
    ring.remove(other);
    assertThat(ring.slots).doesNotContain(alsoGone, other);
    LawnInvariants.checkRing(ring);
    while (!ring.isEmpty()) {
      ring.removeFirst();
    }
    assertThat(referencedSlots(ring)).isZero();
  }

  @Test
  void aRingThatFlowsSteadilyIsTrimmedToTurnInPlace() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    List<LawnTimer<String>> timers = appendNew(ring, 1_000);
    assertThat(ring.slots.length).as("grown with room to spare").isGreaterThan(1_000);

    // Every head that leaves joins again: a steady flow of a thousand timers.
    for (int turn = 0; turn < 3 * ring.slots.length; turn++) {
      ring.append(ring.removeFirst());
    }
    LawnTimer<String>[] trimmed = ring.slots;
    assertThat(trimmed).as("trimmed to the timers, full").hasSize(1_000);
    for (int turn = 0; turn < 3_000; turn++) {
      ring.append(ring.removeFirst());
    }
    assertThat(ring.slots).isSameAs(trimmed);
    assertThat(LawnInvariants.checkRing(ring)).hasSize(1_000).containsAll(timers);

    // One more timer needs room: the ring grows, and is not trimmed while it keeps growing.
    for (int i = 0; i < 3_000; i++) {
      ring.append(ring.removeFirst());
      ring.append(timer("more" + i));
      ring.removeFirst();
      ring.append(timer("and more" + i));
    }
    assertThat(ring.size).isEqualTo(4_000);
    assertThat(ring.slots.length).isGreaterThanOrEqualTo(4_000);
    LawnInvariants.checkRing(ring);
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
        .doesNotContain(beyondSweep.payload());
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
    List<LawnTimer<String>> timers = appendNew(ring, 14);
    int capacity = ring.slots.length;
    assertThat(capacity).isEqualTo(14);
    for (int i = 1; i < 13; i++) {
      if (i != 7) {
        ring.remove(timers.get(i));
      }
    }
    assertThat(ring.tail - ring.head).as("every slot in use").isEqualTo(capacity);

    ring.append(timer("new"));

    assertThat(ring.slots).hasSize(capacity);
    assertThat(ring.tail - ring.head).isEqualTo(4);
    assertThat(contents(ring)).containsExactly("t0", "t7", "t13", "new");
    assertThat(referencedSlots(ring)).isEqualTo(4);
  }

  @Test
  void aFullRingWithManyTimersGrowsToSevenSlotsForEveryFourInOrder() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < TimerRing.INITIAL_CAPACITY; i++) {
      ring.append(timer("t" + i));
      expected.add("t" + i);
    }
    ring.append(timer("more"));
    expected.add("more");
    assertThat(ring.slots).hasSize(TimerRing.goal(TimerRing.INITIAL_CAPACITY));
    for (int i = 0; ring.tail - ring.head < ring.slots.length; i++) {
      ring.append(timer("x" + i));
      expected.add("x" + i);
    }
    int full = ring.slots.length;

    ring.append(timer("last"));
    expected.add("last");

    assertThat(ring.slots).hasSize(full + full * 3 / 4);
    assertThat(contents(ring)).containsExactlyElementsOf(expected);
  }

  @Test
  void aFullRingWithFewStaleSlotsMovesItsTimersToTheGoalDroppingTheStaleOnes() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    List<LawnTimer<String>> timers = appendNew(ring, 14);
    ring.remove(timers.get(3));
    ring.remove(timers.get(9));

    ring.append(timer("new"));

    assertThat(ring.slots).hasSize(TimerRing.goal(12));
    assertThat(ring.tail - ring.head).isEqualTo(13);
    assertThat(referencedSlots(ring)).isEqualTo(13);
    assertThat(contents(ring)).hasSize(13).doesNotContain("t3", "t9").endsWith("t13", "new");
  }

  @Test
  void aLargeRingWhoseHeadPassedMostOfItsTimersGivesItsSlotsBack() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    List<LawnTimer<String>> timers = appendNew(ring, 8 * TimerRing.RETAINED_CAPACITY);
    assertThat(ring.slots.length).isGreaterThanOrEqualTo(8 * TimerRing.RETAINED_CAPACITY);

    while (ring.size > 100) {
      ring.removeFirst();
    }

    assertThat(ring.slots.length).isLessThanOrEqualTo(TimerRing.RETAINED_CAPACITY);
    assertThat(contents(ring)).hasSize(100)
        .containsExactlyElementsOf(timers.subList(timers.size() - 100, timers.size()).stream()
            .map(timer -> timer.payload()).toList());
  }

  @Test
  void cancelledSlotsNeverGrowARingBeyondSevenSlotsForEveryFourTimersItHeldAtOnce() {
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

    assertThat(mostSlots).isLessThanOrEqualTo(TimerRing.goal(mostHeld));
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

  @ParameterizedTest(name = "with stale slots: {0}")
  @CsvSource({"true", "false"})
  void aRingThatGrowsPastItsWindowRenumbersItsTimersInALargerOneAndGivesItsOwnBack(
      boolean withStaleSlots) {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    int oldStart = ring.windowStart;
    int oldSize = ring.windowMask + 1;
    List<LawnTimer<String>> timers = appendNew(ring, 42);
    assertThat(ring.slots).as("full, and one more slot than that would not fit the window")
        .hasSize(42);
    assertThat(TimerRing.goal(40)).isGreaterThanOrEqualTo(oldSize);
    List<LawnTimer<String>> expected = new ArrayList<>(timers);
    if (withStaleSlots) {
      // t5 leaves and joins again: its old slot is stale but still refers to it.
      ring.remove(timers.get(7));
      ring.remove(timers.get(5));
      ring.append(timers.get(5));
      expected.remove(timers.get(7));
      expected.remove(timers.get(5));
      expected.add(timers.get(5));
    } else {
      LawnTimer<String> last = timer("t42");
      ring.append(last);
      expected.add(last);
    }

    assertThat(ring.windowMask + 1).isGreaterThan(ring.slots.length).isGreaterThan(oldSize);
    assertThat(LawnInvariants.checkRing(ring)).containsExactlyElementsOf(expected);
    for (LawnTimer<String> timer : expected) {
      assertThat(timer.ticket - ring.windowStart).isBetween(0, ring.windowMask);
      assertThat(owner.ringOf(timer)).isSameAs(ring);
    }
    assertThat(owner.tickets.ringOf(oldStart)).as("the old window given back").isNull();
    assertThat(timers.get(7).isPending()).isEqualTo(!withStaleSlots);
  }

  @Test
  void atTheTicketLimitTheTicketsAreLoweredAndEveryTimerKeepsItsSlotAndPlace() {
    TimerRing<String> ring = new TimerRing<>(owner, true);
    ring.startTicketsAt(TimerRing.TICKET_LIMIT - 7);
    List<LawnTimer<String>> timers = appendNew(ring, 6);
    ring.remove(timers.get(1));
    // t3 leaves and joins again: its old slot is stale but still refers to it.
    ring.remove(timers.get(3));
    ring.append(timers.get(3));
    assertThat(ring.tail).isEqualTo(TimerRing.TICKET_LIMIT);
    assertThat(ring.tail - ring.head).as("not full").isLessThan(ring.slots.length);
    LawnTimer<String>[] slotsBefore = ring.slots.clone();
    int[] numbersBefore = timers.stream().mapToInt(timer -> timer.ticket).toArray();

    LawnTimer<String> t6 = timer("t6");
    ring.append(t6);

    assertThat(ring.head).as("lowered below the window's size").isNotNegative()
        .isLessThanOrEqualTo(ring.windowMask);
    assertThat(timers).as("no timer touched").extracting(timer -> timer.ticket)
        .containsExactly(Arrays.stream(numbersBefore).boxed().toArray(Integer[]::new));
    assertThat(contents(ring)).containsExactly("t0", "t2", "t4", "t5", "t3", "t6");
    slotsBefore[(ring.headSlot + ring.tail - 1 - ring.head) % ring.slots.length] = t6;
    assertThat(ring.slots).as("no timer moved").containsExactly(slotsBefore);
    assertThat(ring.remove(timers.get(4))).isFalse();
    assertThat(ring.removeFirst()).isSameAs(timers.get(0));
    assertThat(contents(ring)).containsExactly("t2", "t5", "t3", "t6");
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
