package io.github.timerqueue.lawn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** What is special to the lawn: its TTL queues, their order, their index and their upkeep. */
class LawnTimerQueueTest {

  static LawnTimerQueue<String> lawn(long startTime, long resolution) {
    return new LawnTimerQueue<>(
        TimerConfig.builder().startTime(startTime).resolution(resolution).build());
  }

  /** The TTLs that have a queue, in increasing order. */
  static List<Long> ttls(LawnTimerQueue<?> lawn) {
    List<Long> ttls = new ArrayList<>();
    for (int position = 0; position < lawn.index.size(); position++) {
      ttls.add(lawn.index.get(position).ttl);
    }
    ttls.sort(null);
    return ttls;
  }

  /** The queue a pending timer waits in. */
  static TtlQueue<?> queueOf(TimerHandle<?> timer) {
    assertThat(timer.isPending()).as("pending").isTrue();
    return queueOf((LawnTimer<?>) timer);
  }

  private static <T> TtlQueue<?> queueOf(LawnTimer<T> timer) {
    return (TtlQueue<?>) timer.owner.ringOf(timer);
  }

  /** The payloads of a TTL queue, head to tail. */
  static List<String> contents(TtlQueue<?> queue) {
    List<String> payloads = new ArrayList<>();
    queue.forEach(timer -> payloads.add((String) timer.payload()));
    return payloads;
  }

  /** Advances to {@code now} and returns the payloads fired, in the order they were handed out. */
  static List<String> advance(LawnTimerQueue<String> lawn, long now) {
    List<String> fired = new ArrayList<>();
    lawn.advance(now, timer -> fired.add(timer.payload()));
    LawnInvariants.check(lawn);
    return fired;
  }

  @Nested
  class TheOrderingArgumentOfThePaper {

    @Test
    void timersOfOneTtlShareAQueueInTheOrderTheyStartedWhichIsTheOrderTheyExpire() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      TimerHandle<String> first = lawn.schedule(100, "first");
      advance(lawn, 30);
      TimerHandle<String> second = lawn.schedule(130, "second");
      advance(lawn, 60);
      TimerHandle<String> third = lawn.schedule(160, "third");
      LawnInvariants.check(lawn);

      assertThat(ttls(lawn)).containsExactly(100L);
      assertThat(queueOf(first)).isSameAs(queueOf(second)).isSameAs(queueOf(third));
      assertThat(contents(queueOf(first))).containsExactly("first", "second", "third");
      assertThat(lawn.nextExpiryDelay()).isEqualTo(40);

      assertThat(advance(lawn, 129)).containsExactly("first");
      assertThat(advance(lawn, 1_000)).containsExactly("second", "third");
      assertThat(ttls(lawn)).isEmpty();
    }

    @Test
    void theWorkedExampleOfTheClassDocumentation() {
      LawnTimerQueue<String> lawn = lawn(0, 10);
      advance(lawn, 5);
      TimerHandle<String> a = lawn.schedule(41, "a");
      TimerHandle<String> b = lawn.schedule(100, "b");
      advance(lawn, 17);
      TimerHandle<String> c = lawn.schedule(52, "c");
      LawnInvariants.check(lawn);

      assertThat(ttls(lawn)).containsExactly(5L, 10L);
      assertThat(queueOf(a).ttl).isEqualTo(5);
      assertThat(queueOf(b).ttl).isEqualTo(10);
      assertThat(contents(queueOf(c))).containsExactly("a", "c");
      assertThat(lawn.nextExpiryDelay()).isEqualTo(33);

      assertThat(advance(lawn, 49)).isEmpty();
      assertThat(advance(lawn, 60)).containsExactly("a", "c");
      assertThat(ttls(lawn)).containsExactly(10L);
    }

    @Test
    void roundingToTheResolutionKeepsArrivalOrderEvenWhenExactDeadlinesDisagree() {
      // Resolution 10: armed at 2 for 10 and at 5 for 6, both round up to 10 and take TTL 1. Their
      // exact deadlines are in the opposite order of their arrival, their expiries are not.
      LawnTimerQueue<String> lawn = lawn(0, 10);
      advance(lawn, 2);
      TimerHandle<String> early = lawn.schedule(10, "armed at 2 for 10");
      advance(lawn, 5);
      TimerHandle<String> late = lawn.schedule(6, "armed at 5 for 6");
      LawnInvariants.check(lawn);

      assertThat(queueOf(early)).isSameAs(queueOf(late));
      assertThat(queueOf(early).ttl).isEqualTo(1);
      assertThat(advance(lawn, 9)).isEmpty();
      assertThat(advance(lawn, 10)).containsExactly("armed at 2 for 10", "armed at 5 for 6");
    }

    @Test
    void deadlinesAlreadyDueShareTheTtlZeroQueueAndFireAtTheSameNowBetweenTicks() {
      LawnTimerQueue<String> lawn = lawn(0, 10);
      advance(lawn, 5);
      lawn.schedule(5, "now");
      lawn.schedule(-100, "past");
      LawnInvariants.check(lawn);

      assertThat(ttls(lawn)).containsExactly(0L);
      assertThat(advance(lawn, 5)).containsExactly("now", "past");
    }

    @Test
    void timersOfDifferentTtlsFireInExpiryOrderAndEachTtlInArrivalOrder() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      lawn.schedule(10, "A expires 10");
      lawn.schedule(3, "B expires 3");
      advance(lawn, 2);
      lawn.schedule(12, "C expires 12");
      lawn.schedule(5, "D expires 5");
      assertThat(advance(lawn, 4)).containsExactly("B expires 3");
      lawn.schedule(7, "E expires 7");
      lawn.schedule(9, "F expires 9");

      assertThat(ttls(lawn)).containsExactly(3L, 5L, 10L);
      assertThat(advance(lawn, 100)).containsExactly("D expires 5", "E expires 7",
          "F expires 9", "A expires 10", "C expires 12");
    }

    @Test
    void timersArmedAlreadyDueKeepTheirOrderAndGoAmongTheOthersByTheDeadlineOfTheFirstWaiting() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      lawn.schedule(10, "A expires 10");
      lawn.schedule(20, "B expires 20");
      List<String> fired = new ArrayList<>();
      lawn.advance(25, timer -> fired.add(timer.payload()), 1);
      assertThat(fired).containsExactly("A expires 10");
      lawn.schedule(15, "due since 15");
      lawn.schedule(24, "due since 24");
      lawn.schedule(12, "due since 12");
      LawnInvariants.check(lawn);

      assertThat(advance(lawn, 25))
          .containsExactly("due since 15", "B expires 20", "due since 24", "due since 12");
    }

    @Test
    void aLimitedAdvanceTakesTheEarliestExpiriesFirst() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      lawn.schedule(30, "30");
      lawn.schedule(10, "10");
      lawn.schedule(20, "20");
      advance(lawn, 5);
      lawn.schedule(25, "25");
      List<String> fired = new ArrayList<>();

      assertThat(lawn.advance(100, timer -> fired.add(timer.payload()), 2)).isEqualTo(2);
      LawnInvariants.check(lawn);
      assertThat(fired).containsExactly("10", "20");
      assertThat(lawn.nextExpiryDelay()).isZero();
      assertThat(advance(lawn, 100)).containsExactly("25", "30");
    }
  }

  @Nested
  class Upkeep {

    @Test
    void aQueueThatEmptiesLeavesTheMapAndTheIndexAtOnce() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      TimerHandle<String> tenA = lawn.schedule(10, "10a");
      TimerHandle<String> tenB = lawn.schedule(10, "10b");
      lawn.schedule(20, "20");
      TimerHandle<String> thirty = lawn.schedule(30, "30");
      assertThat(ttls(lawn)).containsExactly(10L, 20L, 30L);

      lawn.cancel(tenA);
      LawnInvariants.check(lawn);
      assertThat(ttls(lawn)).containsExactly(10L, 20L, 30L);
      lawn.cancel(tenB);
      LawnInvariants.check(lawn);
      assertThat(ttls(lawn)).containsExactly(20L, 30L);
      assertThat(lawn.queuesByTtl.get(10)).isNull();
      assertThat(lawn.nextExpiryDelay()).isEqualTo(20);

      assertThat(advance(lawn, 20)).containsExactly("20");
      assertThat(ttls(lawn)).containsExactly(30L);
      assertThat(lawn.queuesByTtl.size()).isEqualTo(1);

      lawn.reschedule(thirty, 25);
      LawnInvariants.check(lawn);
      assertThat(ttls(lawn)).containsExactly(5L);
      lawn.drain(timer -> {});
      LawnInvariants.check(lawn);
      assertThat(ttls(lawn)).isEmpty();
      assertThat(lawn.queuesByTtl.size()).isZero();
    }

    @Test
    void aQueueThatEmptiesAndRefillsAgainAndAgainReusesOneQueueObject() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      TimerHandle<String> timer = lawn.schedule(10, "t");
      TtlQueue<?> queue = queueOf(timer);

      for (int round = 0; round < 1_000; round++) {
        assertThat(advance(lawn, lawn.now() + 10)).containsExactly("t");
        assertThat(ttls(lawn)).isEmpty();
        lawn.reschedule(timer, lawn.now() + 10);
        assertThat(queueOf(timer)).isSameAs(queue);
      }
      assertThat(lawn.spareCount).isZero();
    }

    @Test
    void cancellingAndReArmingInOneLargeQueueKeepsItsRingBoundedAndItsOrder() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      List<TimerHandle<String>> timers = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) {
        timers.add(lawn.schedule(100, "t" + i));
      }
      TtlQueue<?> queue = queueOf(timers.get(0));

      // Each round re-arms every other timer: it leaves a stale slot and joins the tail again.
      int slotsAfterTenRounds = 0;
      for (int round = 0; round < 20; round++) {
        for (int i = 1; i < timers.size(); i += 2) {
          assertThat(lawn.reschedule(timers.get(i), 100)).isTrue();
        }
        LawnInvariants.check(lawn);
        if (round == 9) {
          slotsAfterTenRounds = queue.slots.length;
        }
      }
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < timers.size(); i += 2) {
        expected.add("t" + i);
      }
      for (int i = 1; i < timers.size(); i += 2) {
        expected.add("t" + i);
      }

      assertThat(queue.slots.length).as("compacted, no longer grown")
          .isEqualTo(slotsAfterTenRounds).isLessThanOrEqualTo(TimerRing.goal(timers.size()));
      assertThat(contents(queue)).containsExactlyElementsOf(expected);
      assertThat(advance(lawn, 100)).containsExactlyElementsOf(expected);
    }

    @Test
    void aSpareQueueDoesNotKeepTheSlotsOfABurst() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      for (int i = 0; i < 4 * TimerRing.RETAINED_CAPACITY; i++) {
        lawn.schedule(100, "t" + i);
      }
      TtlQueue<?> queue = lawn.index.first();
      assertThat(queue.slots.length).isGreaterThan(TimerRing.RETAINED_CAPACITY);

      assertThat(advance(lawn, 100)).hasSize(4 * TimerRing.RETAINED_CAPACITY);

      assertThat(lawn.spares[lawn.spareCount - 1]).isSameAs(queue);
      assertThat(queue.slots.length).isLessThanOrEqualTo(TimerRing.RETAINED_CAPACITY);
    }

    @Test
    void anEmptiedQueueThatIsNotKeptLetsGoOfItsSlotsAndItsTicketNumbers() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      List<TimerHandle<String>> timers = new ArrayList<>();
      Set<TtlQueue<?>> queues = Collections.newSetFromMap(new IdentityHashMap<>());
      for (int ttl = 1; ttl <= LawnTimerQueue.SPARE_QUEUES + 1; ttl++) {
        for (int i = 0; i <= TimerRing.RETAINED_CAPACITY; i++) {
          timers.add(lawn.schedule(ttl, "t" + ttl + "." + i));
        }
        queues.add(queueOf(timers.get(timers.size() - 1)));
      }
      long numbersCut = lawn.tickets.numbersCut();

      lawn.clear();
      LawnInvariants.check(lawn);

      assertThat(lawn.spareCount).isEqualTo(LawnTimerQueue.SPARE_QUEUES);
      assertThat(queues).hasSize(LawnTimerQueue.SPARE_QUEUES + 1);
      for (int spare = 0; spare < lawn.spareCount; spare++) {
        queues.remove(lawn.spares[spare]);
      }
      TtlQueue<?> dropped = queues.iterator().next();
      assertThat(dropped.slots).hasSize(TimerRing.INITIAL_CAPACITY);
      assertThat(dropped.windowMask).as("no window").isEqualTo(-1);
      for (int number = 0; number < numbersCut; number += TicketTable.BLOCK) {
        assertThat(lawn.tickets.ringOf(number)).isNotSameAs(dropped);
      }
      for (TimerHandle<String> timer : timers) {
        assertThat(timer.isPending()).isFalse();
      }
    }

    @Test
    void atMostAFixedNumberOfEmptiedQueuesIsKept() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      // Latest first, so that each TTL beyond the map's gets a shared queue of its own.
      for (int ttl = 3 * LawnTimerQueue.SPARE_QUEUES; ttl >= 1; ttl--) {
        lawn.schedule(ttl, "t" + ttl);
      }
      assertThat(lawn.index.size()).isEqualTo(3 * LawnTimerQueue.SPARE_QUEUES);

      lawn.clear();
      LawnInvariants.check(lawn);

      assertThat(ttls(lawn)).isEmpty();
      assertThat(lawn.queuesByTtl.size()).isZero();
      assertThat(lawn.spareCount).isEqualTo(LawnTimerQueue.SPARE_QUEUES);
    }

    @Test
    void anAdvanceBeforeTheClosestExpirationFiresNothingAndLeavesTheStructureAlone() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      lawn.schedule(1_000, "a");
      lawn.schedule(5_000, "b");
      TtlQueue<?> first = lawn.index.first();
      int[] handed = {0};

      for (long now = 1; now < 1_000; now += 37) {
        assertThat(lawn.advance(now, timer -> handed[0]++)).isZero();
        assertThat(lawn.nextExpiryDelay()).isEqualTo(1_000 - now);
      }

      assertThat(handed[0]).isZero();
      assertThat(lawn.index.first()).isSameAs(first);
      assertThat(ttls(lawn)).containsExactly(1_000L, 5_000L);
      LawnInvariants.check(lawn);
    }

    @Test
    void aThrowingHandlerLeavesTheRestDueInTheirQueuesForTheNextAdvance() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      lawn.schedule(1, "1");
      lawn.schedule(2, "2");
      lawn.schedule(3, "3");
      RuntimeException failure = new RuntimeException("on purpose");

      Throwable thrown = catchThrowable(() -> lawn.advance(3, timer -> {
        throw failure;
      }));
      LawnInvariants.check(lawn);

      assertThat(thrown).isSameAs(failure);
      assertThat(lawn.size()).isEqualTo(2);
      assertThat(ttls(lawn)).containsExactly(2L, 3L);
      assertThat(lawn.nextExpiryDelay()).isZero();
      lawn.schedule(4, "armed after");
      assertThat(advance(lawn, 4)).containsExactly("2", "3", "armed after");
    }
  }

  @Nested
  class TheReferenceProjectsCases {

    @Test
    void nextExpiryAfterDeletingTheEarliest() {
      LawnTimerQueue<String> lawn = lawn(1_000, 1);
      lawn.schedule(1_000 + 10_000, "key1");
      TimerHandle<String> key2 = lawn.schedule(1_000 + 2_000, "key2");
      lawn.schedule(1_000 + 3_000, "key3");

      assertThat(lawn.cancel(key2)).isTrue();
      lawn.schedule(1_000 + 400_000, "key4");
      LawnInvariants.check(lawn);

      assertThat(lawn.nextExpiryDelay()).isEqualTo(3_000);
    }

    @Test
    void popNextHandsOutTheClosestAfterDeletingTheEarliest() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      lawn.schedule(10_000, "key1");
      TimerHandle<String> key2 = lawn.schedule(2_000, "key2");
      lawn.cancel(key2);
      lawn.schedule(3_000, "key3");
      List<TimerHandle<String>> popped = new ArrayList<>();

      assertThat(lawn.advance(20_000, popped::add, 1)).isEqualTo(1);
      LawnInvariants.check(lawn);

      assertThat(popped).extracting(TimerHandle::payload).containsExactly("key3");
      assertThat(popped.get(0).isPending()).isFalse();
      assertThat(lawn.cancel(popped.get(0))).isFalse();
    }

    @Test
    void expiringTwoOfFour() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      TimerHandle<String> key1 = lawn.schedule(10_000, "key1");
      TimerHandle<String> key2 = lawn.schedule(2_000, "key2");
      lawn.schedule(3_000, "key3");
      lawn.cancel(key2);
      lawn.schedule(4_000, "key4");
      List<TimerHandle<String>> expired = new ArrayList<>();

      assertThat(lawn.advance(0, expired::add)).isZero();
      assertThat(lawn.advance(4_000, expired::add)).isEqualTo(2);
      LawnInvariants.check(lawn);

      assertThat(expired).extracting(TimerHandle::payload).containsExactly("key3", "key4");
      assertThat(lawn.cancel(expired.get(0))).as("deleting an expired timer fails quietly")
          .isFalse();
      assertThat(lawn.size()).isEqualTo(1);
      assertThat(key1.isPending()).isTrue();
      assertThat(ttls(lawn)).containsExactly(10_000L);
    }
  }

  @Nested
  class Rescheduling {

    @Test
    void aRescheduledTimerLeavesItsOldQueueAndDoesNotFireAtItsOldExpiry() {
      // The original C implementation's update path could leave the timer in its old queue too.
      LawnTimerQueue<String> lawn = lawn(0, 1);
      TimerHandle<String> moved = lawn.schedule(100, "moved");
      lawn.schedule(100, "stays");

      assertThat(lawn.reschedule(moved, 300)).isTrue();
      LawnInvariants.check(lawn);

      assertThat(contents(lawn.queuesByTtl.get(100))).containsExactly("stays");
      assertThat(contents(lawn.queuesByTtl.get(300))).containsExactly("moved");
      assertThat(advance(lawn, 299)).containsExactly("stays");
      assertThat(moved.isPending()).isTrue();
      assertThat(advance(lawn, 300)).containsExactly("moved");
    }

    @Test
    void rescheduleJoinsTheTailOfItsNewTtlsQueue() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      TimerHandle<String> first = lawn.schedule(50, "first");
      lawn.schedule(50, "second");
      lawn.schedule(50, "third");

      lawn.reschedule(first, 50);
      LawnInvariants.check(lawn);

      assertThat(contents(queueOf(first))).containsExactly("second", "third", "first");
      assertThat(lawn.nextExpiryDelay()).isEqualTo(50);
    }

    @Test
    void reschedulingBetweenTtlsManyTimesLeavesNothingBehind() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      List<TimerHandle<String>> bystanders = new ArrayList<>();
      for (long ttl = 10; ttl <= 50; ttl += 10) {
        bystanders.add(lawn.schedule(1_000_000 + ttl, "bystander " + ttl));
      }
      TimerHandle<String> wanderer = lawn.schedule(25, "wanderer");
      // All over 5, so that the advances by 5 below never reach the wanderer.
      long[] ttlsToVisit = {10, 20, 30, 40, 50, 15, 25, 6, 1_000_000, 7};

      for (int round = 0; round < 10_000; round++) {
        long ttl = ttlsToVisit[round % ttlsToVisit.length];
        if (round % 3 == 0) {
          assertThat(lawn.cancel(wanderer)).isTrue();
          assertThat(lawn.reschedule(wanderer, lawn.now() + ttl)).isFalse();
        } else {
          assertThat(lawn.reschedule(wanderer, lawn.now() + ttl)).isTrue();
        }
        assertThat(queueOf(wanderer).ttl).isEqualTo(ttl);
        assertThat(lawn.size()).isEqualTo(bystanders.size() + 1);
        if (round % 97 == 0) {
          LawnInvariants.check(lawn);
          assertThat(advance(lawn, lawn.now() + 5)).isEmpty();
        }
      }
      LawnInvariants.check(lawn);

      List<TimerHandle<String>> visited = new ArrayList<>();
      lawn.forEach(visited::add);
      assertThat(visited).containsOnlyOnce(wanderer).hasSize(bystanders.size() + 1);
      assertThat(ttls(lawn)).hasSize(5 + 1);
      long due = wanderer.deadline();
      assertThat(advance(lawn, due - 1)).isEmpty();
      assertThat(advance(lawn, due)).containsExactly("wanderer");
      assertThat(ttls(lawn)).hasSize(5);
    }
  }

  @Nested
  class ScheduleWithin {

    @Test
    void joinsAnExistingQueueThatExpiresInTheRange() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      TimerHandle<String> fixed = lawn.schedule(120, "fixed");

      TimerHandle<String> ranged = lawn.scheduleWithin(100, 150, "ranged");
      LawnInvariants.check(lawn);

      assertThat(ranged.deadline()).isEqualTo(120);
      assertThat(queueOf(ranged)).isSameAs(queueOf(fixed));
      assertThat(ttls(lawn)).containsExactly(120L);
    }

    @Test
    void startsTheRoundestTtlOfTheRangeWhenNoQueueFitsSoThatLaterRangesShareIt() {
      LawnTimerQueue<String> lawn = lawn(0, 1);

      assertThat(lawn.scheduleWithin(100, 150, "a").deadline()).isEqualTo(128);
      advance(lawn, 10);
      assertThat(lawn.scheduleWithin(110, 160, "b").deadline()).isEqualTo(138);
      assertThat(lawn.scheduleWithin(15, 17, "c").deadline()).isEqualTo(16);
      assertThat(lawn.scheduleWithin(1_010, 1_010, "d").deadline()).isEqualTo(1_010);
      LawnInvariants.check(lawn);

      assertThat(ttls(lawn)).containsExactly(6L, 128L, 1_000L);
    }

    @Test
    void prefersTheSmallestExistingTtlWhetherItProbesTheRangeOrScansTheQueues() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      for (long ttl = 10; ttl <= 100; ttl += 10) {
        lawn.schedule(ttl, "fixed " + ttl);
      }

      // 966 TTLs wide, wider than the 10 queues: scans them.
      assertThat(lawn.scheduleWithin(35, 1_000, "wide").deadline()).isEqualTo(40);
      // 4 TTLs wide: probes each, finds none, starts the roundest.
      assertThat(lawn.scheduleWithin(55, 58, "narrow, none").deadline()).isEqualTo(56);
      // 3 TTLs wide: probes each, finds 60.
      assertThat(lawn.scheduleWithin(59, 61, "narrow, one").deadline()).isEqualTo(60);
      LawnInvariants.check(lawn);

      assertThat(ttls(lawn)).hasSize(11).contains(56L);
      assertThat(contents(lawn.queuesByTtl.get(40))).containsExactly("fixed 40", "wide");
      assertThat(contents(lawn.queuesByTtl.get(60))).containsExactly("fixed 60", "narrow, one");
    }

    @Test
    void aRangeThatIncludesNowIsDueAtOnce() {
      LawnTimerQueue<String> lawn = lawn(0, 1);
      advance(lawn, 50);

      TimerHandle<String> timer = lawn.scheduleWithin(40, 90, "t");

      assertThat(timer.deadline()).isEqualTo(50);
      assertThat(ttls(lawn)).containsExactly(0L);
      assertThat(advance(lawn, 50)).containsExactly("t");
    }

    @Test
    void aLatestMoreThanLongMaxValueAheadIsTakenAsTheFarthestDeadlineNotAsThePast() {
      // latest - earliest >= 0, but latest - now wraps: by the signed-difference rule latest alone
      // would lie in the past while earliest does not. The range is cut at now + Long.MAX_VALUE.
      LawnTimerQueue<String> lawn = lawn(0, 1);
      advance(lawn, 1_000);
      long earliest = lawn.now() + 100;
      long latest = earliest + Long.MAX_VALUE - 50;

      TimerHandle<String> timer = lawn.scheduleWithin(earliest, latest, "t");
      LawnInvariants.check(lawn);

      assertThat(timer.deadline() - earliest).isGreaterThanOrEqualTo(0);
      assertThat(timer.deadline() - lawn.now()).isBetween(100L, Long.MAX_VALUE);
      assertThat(advance(lawn, earliest - 1)).isEmpty();
      assertThat(timer.isPending()).isTrue();
    }

    @Test
    void withAResolutionTheReportedDeadlineIsOneThatFiresWhenTheTimerDoes() {
      LawnTimerQueue<String> lawn = lawn(0, 10);
      advance(lawn, 5);

      // [17, 19] rounds up to tick 2 (time 20), which is past latest: the deadline is latest.
      TimerHandle<String> clamped = lawn.scheduleWithin(17, 19, "clamped");
      // [27, 44] is TTLs 3 to 5, of which 4 (time 40) is the roundest and lies in the range.
      TimerHandle<String> inRange = lawn.scheduleWithin(27, 44, "in range");
      LawnInvariants.check(lawn);

      assertThat(clamped.deadline()).isEqualTo(19);
      assertThat(queueOf(clamped).ttl).isEqualTo(2);
      assertThat(inRange.deadline()).isEqualTo(40);
      assertThat(queueOf(inRange).ttl).isEqualTo(4);
      assertThat(advance(lawn, 19)).isEmpty();
      assertThat(advance(lawn, 20)).containsExactly("clamped");
      assertThat(advance(lawn, 39)).isEmpty();
      assertThat(advance(lawn, 40)).containsExactly("in range");
    }
  }

  @Nested
  class SharedQueuesOfRareTtls {

    /** A lawn whose map is full: one timer in each of its TTL queues, far ahead. */
    LawnTimerQueue<String> lawnWithAFullMap(long resolution) {
      LawnTimerQueue<String> lawn = lawn(0, resolution);
      for (int ttl = 0; ttl < LawnTimerQueue.TTL_QUEUES; ttl++) {
        lawn.schedule((1_000_000 + ttl) * resolution, "filler " + ttl);
      }
      assertThat(lawn.queuesByTtl.size()).isEqualTo(LawnTimerQueue.TTL_QUEUES);
      return lawn;
    }

    @Test
    void aNewTtlJoinsTheSharedQueueWhoseLatestExpiryIsTheLatestAtOrBeforeItsOwn() {
      LawnTimerQueue<String> lawn = lawnWithAFullMap(1);
      TimerHandle<String> first = lawn.schedule(50, "50");
      TimerHandle<String> earlier = lawn.schedule(30, "30");
      lawn.schedule(60, "60");
      lawn.schedule(40, "40");
      lawn.schedule(55, "55");
      LawnInvariants.check(lawn);

      assertThat(queueOf(first).ttl).isEqualTo(TtlQueue.SHARED);
      assertThat(lawn.queuesByTtl.size()).isEqualTo(LawnTimerQueue.TTL_QUEUES);
      assertThat(lawn.shared.count()).isEqualTo(2);
      assertThat(contents(queueOf(first))).containsExactly("50", "60");
      assertThat(contents(queueOf(earlier))).containsExactly("30", "40", "55");
      assertThat(advance(lawn, 100)).containsExactly("30", "40", "50", "55", "60");
    }

    @Test
    void timersOfOneTtlArmedInOneTickFireInArmingOrderFromDifferentSharedQueues() {
      LawnTimerQueue<String> lawn = lawnWithAFullMap(1);
      TimerHandle<String> a = lawn.schedule(50, "A");
      lawn.schedule(60, "later");
      // The queue of A now ends at 60: B starts a new shared queue, ranked after A's.
      TimerHandle<String> b = lawn.schedule(50, "B");
      LawnInvariants.check(lawn);

      assertThat(queueOf(a)).isNotSameAs(queueOf(b));
      assertThat(queueOf(a).rank).isLessThan(queueOf(b).rank);
      assertThat(advance(lawn, 50)).containsExactly("A", "B");
    }

    @Test
    void aTtlThatGetsItsOwnQueueLaterInTheTickFiresAfterItsTimersInSharedQueues() {
      LawnTimerQueue<String> lawn = lawnWithAFullMap(10);
      TimerHandle<String> a = lawn.schedule(500, "A");
      lawn.cancel(lawn.queuesByTtl.get(1_000_000).first());
      TimerHandle<String> b = lawn.schedule(500, "B");
      LawnInvariants.check(lawn);

      assertThat(queueOf(a).ttl).isEqualTo(TtlQueue.SHARED);
      assertThat(queueOf(b).ttl).isEqualTo(50);
      assertThat(queueOf(a).rank).isLessThan(queueOf(b).rank);
      assertThat(advance(lawn, 500)).containsExactly("A", "B");
    }

    @Test
    void emptiedSharedQueuesStayUntilHalfOfThemAreEmptyThenBecomeSpares() {
      LawnTimerQueue<String> lawn = lawnWithAFullMap(1);
      for (int expiry = 200; expiry >= 110; expiry -= 10) {
        lawn.schedule(expiry, Integer.toString(expiry));
      }
      assertThat(lawn.shared.count()).as("each earlier than every latest").isEqualTo(10);
      int spares = lawn.spareCount;

      assertThat(advance(lawn, 150)).containsExactly("110", "120", "130", "140", "150");
      assertThat(lawn.shared.count()).as("five of ten empty: kept").isEqualTo(10);
      TimerHandle<String> refill = lawn.schedule(155, "155");
      LawnInvariants.check(lawn);
      assertThat(lawn.shared.count()).isEqualTo(10);
      assertThat(lawn.shared.latestAt(5)).as("the emptied queue of 150 takes it").isEqualTo(155);
      assertThat(queueOf(refill)).isSameAs(lawn.shared.get(5));

      assertThat(advance(lawn, 155)).containsExactly("155");
      assertThat(lawn.shared.count()).as("five of ten empty again: kept").isEqualTo(10);
      assertThat(advance(lawn, 160)).containsExactly("160");
      assertThat(lawn.shared.count()).as("six of ten empty: dropped").isEqualTo(4);
      assertThat(lawn.spareCount).isEqualTo(spares + 6);
      assertThat(advance(lawn, 200)).containsExactly("170", "180", "190", "200");
      assertThat(lawn.shared.count()).isZero();
    }

    @Test
    void randomArmingInSharedQueuesKeepsEachTtlOfATickInArmingOrder() {
      SplittableRandom random = new SplittableRandom(19);
      LawnTimerQueue<String> lawn = lawnWithAFullMap(4);
      Map<TimerHandle<String>, long[]> armed = new IdentityHashMap<>();
      List<TimerHandle<String>> handles = new ArrayList<>();
      long armings = 0;
      for (int round = 0; round < 400; round++) {
        for (int i = 0; i < 40; i++) {
          long deadline = lawn.now() + 4 * random.nextLong(1, 60);
          TimerHandle<String> timer;
          if (!handles.isEmpty() && random.nextInt(4) == 0) {
            timer = handles.get(random.nextInt(handles.size()));
            lawn.reschedule(timer, deadline);
          } else {
            timer = lawn.schedule(deadline, "t");
            handles.add(timer);
          }
          armed.put(timer, new long[] {lawn.now(), armings++});
          if (random.nextInt(5) == 0) {
            lawn.cancel(handles.get(random.nextInt(handles.size())));
          }
        }
        LawnInvariants.check(lawn);
        List<TimerHandle<String>> fired = new ArrayList<>();
        lawn.advance(lawn.now() + 4, fired::add);
        for (int later = 1; later < fired.size(); later++) {
          for (int earlier = 0; earlier < later; earlier++) {
            TimerHandle<String> one = fired.get(earlier);
            TimerHandle<String> other = fired.get(later);
            if (one.deadline() == other.deadline()
                && armed.get(one)[0] == armed.get(other)[0]) {
              assertThat(armed.get(one)[1]).as("armed in one tick, fired in arming order")
                  .isLessThan(armed.get(other)[1]);
            }
          }
        }
      }
      assertThat(lawn.shared.count()).as("the shared queues were used").isPositive();
    }
  }

  @Nested
  class TheEndOfTheClock {

    @Test
    void expiriesPastTheEndOfTheClocksRangeSaturateInOneQueueInArrivalOrder() {
      LawnTimerQueue<String> lawn = lawn(0, 1_000);
      advance(lawn, Long.MAX_VALUE);
      advance(lawn, Long.MAX_VALUE + Long.MAX_VALUE); // 2^64 - 2 from the start
      long now = lawn.now();
      TimerHandle<String> first = lawn.schedule(now + 10, "first");
      TimerHandle<String> far = lawn.schedule(now + Long.MAX_VALUE, "far");
      TimerHandle<String> second = lawn.schedule(now + 10, "second");
      LawnInvariants.check(lawn);

      assertThat(queueOf(first)).isSameAs(lawn.saturated);
      assertThat(queueOf(first).firstExpiry()).isEqualTo(-1L);
      assertThat(contents(lawn.saturated)).containsExactly("first", "far", "second");
      assertThat(lawn.queuesByTtl.size()).as("the saturated queue is not mapped").isZero();
      assertThat(second.isPending()).isTrue();
      assertThat(far.isPending()).isTrue();
      assertThat(lawn.nextExpiryDelay()).isEqualTo(1);
    }

    @Test
    void aTtlsTimersWhoseExpiryDoesNotSaturateStayInItsQueueAndFireThere() {
      // 2^64 = 18446744073709551616: 616 past a multiple of the resolution.
      LawnTimerQueue<String> lawn = lawn(0, 1_000);
      advance(lawn, Long.MAX_VALUE);
      advance(lawn, -5_000); // 2^64 - 5,000 from the start
      TimerHandle<String> inRange = lawn.schedule(lawn.now() + 3_000, "in range");
      advance(lawn, -2_500);
      TimerHandle<String> beyond = lawn.schedule(lawn.now() + 3_000, "beyond");
      LawnInvariants.check(lawn);

      assertThat(queueOf(inRange).ttl).isEqualTo(4);
      assertThat(queueOf(beyond)).isSameAs(lawn.saturated);
      assertThat(lawn.nextExpiryDelay()).as("to 2^64 - 1,616, the deadline rounded up")
          .isEqualTo(884);
      assertThat(advance(lawn, -1_617)).isEmpty();
      assertThat(advance(lawn, -1_616)).containsExactly("in range");
      assertThat(beyond.isPending()).isTrue();
      assertThat(lawn.nextExpiryDelay()).isEqualTo(1_615);
    }

    @Test
    void aTtlThatSaturatesOnceTheClockMovesSendsTheTimersArmedWithItToTheSaturatedQueue() {
      // As above, with the TTL's queue the one the last timer was armed in, whose deadlines are
      // looked up by a window worked out when the clock moves: it must close once they saturate.
      LawnTimerQueue<String> lawn = lawn(0, 1_000);
      advance(lawn, Long.MAX_VALUE);
      advance(lawn, -5_000);
      TimerHandle<String> first = lawn.schedule(lawn.now() + 3_000, "first");
      TimerHandle<String> second = lawn.schedule(lawn.now() + 3_000, "second");
      assertThat(queueOf(second)).isSameAs(queueOf(first));
      advance(lawn, -2_500);
      TimerHandle<String> beyond = lawn.schedule(lawn.now() + 3_000, "beyond");
      LawnInvariants.check(lawn);

      assertThat(queueOf(first).ttl).isEqualTo(4);
      assertThat(queueOf(beyond)).isSameAs(lawn.saturated);
      assertThat(advance(lawn, -1_616)).containsExactly("first", "second");
      assertThat(beyond.isPending()).isTrue();
    }

    @Test
    void aTtlWhoseDeadlinesLieMoreThanLongMaxValueAheadIsNotTakenByTheLastQueue() {
      // Long.MAX_VALUE rounded up to the resolution, 193 past it, is the TTL queue's expiry and
      // the last queue's: a deadline between the two is more than Long.MAX_VALUE ahead, so in the
      // past by the signed-difference rule, and due; it must not join the queue.
      LawnTimerQueue<String> lawn = lawn(0, 1_000);
      TimerHandle<String> far = lawn.schedule(Long.MAX_VALUE, "far");
      TimerHandle<String> again = lawn.schedule(Long.MAX_VALUE, "again");
      assertThat(queueOf(again)).isSameAs(queueOf(far));
      TimerHandle<String> past = lawn.schedule(Long.MIN_VALUE, "past");
      LawnInvariants.check(lawn);

      assertThat(queueOf(past).ttl).isZero();
      assertThat(advance(lawn, 0)).containsExactly("past");
    }
  }
}
