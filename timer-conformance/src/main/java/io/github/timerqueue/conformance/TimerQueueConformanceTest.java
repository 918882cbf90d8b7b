package io.github.timerqueue.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract of {@link TimerQueue}, as tests that every strategy must pass.
 *
 * <p>A strategy module runs the suite by extending it and naming its strategy:
 *
 * <pre>{@code
 * class WheelConformanceTest extends TimerQueueConformanceTest {
 *   @Override
 *   protected String strategy() {
 *     return "wheel";
 *   }
 * }
 * }</pre>
 *
 * <p>Each test runs under every {@link Setup}: clock origins at both ends of the {@code long} range,
 * around zero and at random, crossed with resolutions 1, 64 and 1000. The suite checks the contract,
 * not an implementation: where the contract allows a range (a timer may fire anywhere between its
 * deadline and its deadline rounded up to the resolution), so do the tests. {@link
 * #randomOperationsAgreeWithTheContract} runs a seeded random mix of every operation against a
 * model; its failure message names the seed and the operation that diverged, and the system
 * property {@code timerqueue.conformance.ops} sets how many operations it runs.
 */
public abstract class TimerQueueConformanceTest {

  /** For a strategy's test class, which JUnit instantiates: the suite holds no state of its own. */
  protected TimerQueueConformanceTest() {}

  /**
   * Names the strategy under test.
   *
   * @return the name under which the strategy is registered with {@link TimerQueues}
   */
  protected abstract String strategy();

  /**
   * Options applied to every queue the suite creates; override to run the suite under a
   * non-default configuration of the strategy.
   *
   * @return the strategy options, by name; empty by default
   */
  protected Map<String, String> options() {
    return Map.of();
  }

  /**
   * Creates the queue under test. By default through {@link TimerQueues#create(String,
   * TimerConfig)}, so that the suite also checks the strategy's registration.
   *
   * @param <T> the payload type
   * @param config the clock origin and resolution the suite chose; {@link #options()} are added
   * @return a new, empty queue of the strategy under test
   */
  protected <T> TimerQueue<T> create(TimerConfig config) {
    TimerConfig.Builder builder = config.toBuilder();
    options().forEach(builder::option);
    return TimerQueues.create(strategy(), builder.build());
  }

  static List<Setup> setups() {
    return Setup.all();
  }

  private <T> TimerQueue<T> create(Setup setup) {
    return create(setup.config().build());
  }

  private static <T> Consumer<TimerHandle<T>> ignore() {
    return timer -> {};
  }

  // ---------------------------------------------------------------- creation

  @Test
  void strategyIsRegisteredUnderItsName() {
    assertThat(TimerQueues.strategies()).contains(strategy());
    assertThat(create(TimerConfig.defaults()).strategy()).isEqualTo(strategy());
  }

  @ParameterizedTest
  @MethodSource("setups")
  void newQueueIsEmptyAtItsStartTime(Setup setup) {
    TimerQueue<String> queue = create(setup);

    assertThat(queue.now()).isEqualTo(setup.startTime());
    assertThat(queue.size()).isZero();
    assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);
    assertThat(queue.advance(setup.startTime(), ignore())).isZero();
    List<TimerHandle<String>> visited = new ArrayList<>();
    queue.forEach(visited::add);
    assertThat(visited).isEmpty();
    assertThat(queue.drain(ignore())).isZero();
  }

  @ParameterizedTest
  @MethodSource("setups")
  void scheduleReturnsAPendingHandleThatCarriesItsPayloadAndDeadline(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long deadline = queue.now() + 12_345;

    TimerHandle<String> timer = queue.schedule(deadline, "payload");

    assertThat(timer.payload()).isEqualTo("payload");
    assertThat(timer.deadline()).isEqualTo(deadline);
    assertThat(timer.isPending()).isTrue();
    assertThat(queue.size()).isEqualTo(1);
    List<TimerHandle<String>> visited = new ArrayList<>();
    queue.forEach(visited::add);
    assertThat(visited).containsExactly(timer);
  }

  // ---------------------------------------------------------------- when timers fire

  @ParameterizedTest
  @MethodSource("setups")
  void timerFiresNeitherBeforeItsDeadlineNorAfterItIsRoundedUpToTheResolution(Setup setup) {
    long r = setup.resolution();
    long[] clockOffsets = {0, 1, r / 2 + 1, 3 * r - 1};
    long[] distances = {1, 2, 3, r - 1, r, r + 1, 2 * r + 3, 5 * r, 17 * r - 5};
    for (long clockOffset : clockOffsets) {
      for (long distance : distances) {
        if (distance < 1) {
          continue;
        }
        TimerQueue<String> queue = create(setup);
        queue.advance(setup.startTime() + clockOffset, ignore());
        long deadline = queue.now() + distance;
        long mustFireBy = setup.startTime()
            + setup.mustFireBy(clockOffset, Setup.deadlineKey(clockOffset, queue.now(), deadline));
        TimerHandle<String> timer = queue.schedule(deadline, "t");

        long firedAt = stepUntilFired(queue, timer, mustFireBy + 1, 1);

        String where = setup + ", clock offset " + clockOffset + ", distance " + distance;
        assertThat(firedAt - deadline).as("fired before its deadline; %s", where)
            .isGreaterThanOrEqualTo(0);
        assertThat(firedAt - mustFireBy).as("fired after its rounded-up deadline; %s", where)
            .isLessThanOrEqualTo(0);
      }
    }
  }

  /** Advances by {@code step} until the timer fires; returns the clock at which it fired. */
  private static long stepUntilFired(
      TimerQueue<String> queue, TimerHandle<String> timer, long giveUpAt, long step) {
    Recorder<String> recorder = new Recorder<>(queue);
    while (recorder.fired.isEmpty()) {
      assertThat(queue.now() - giveUpAt)
          .as("timer with deadline %d has not fired by %d", timer.deadline(), giveUpAt)
          .isLessThan(0);
      queue.advance(queue.now() + step, recorder);
    }
    assertThat(recorder.fired).containsExactly(timer);
    assertThat(timer.isPending()).isFalse();
    return recorder.firedAt.get(0);
  }

  @ParameterizedTest
  @MethodSource("setups")
  void deadlineAtOrBeforeNowIsDueAtTheNextAdvanceEvenWithTheSameNow(Setup setup) {
    TimerQueue<String> queue = create(setup);
    queue.advance(setup.startTime() + 3, ignore());
    long now = queue.now();
    queue.schedule(now, "now");
    queue.schedule(now - 1, "just past");
    queue.schedule(now - 1_000_000, "long past");
    queue.schedule(now + Long.MIN_VALUE, "as far back as a long reaches");
    queue.scheduleWithin(now - 10, now, "range ending now");

    assertThat(queue.nextExpiryDelay()).isZero();
    Recorder<String> recorder = new Recorder<>(queue);
    assertThat(queue.advance(now, recorder)).isEqualTo(5);
    assertThat(recorder.payloads()).containsExactlyInAnyOrder(
        "now", "just past", "long past", "as far back as a long reaches", "range ending now");
    assertThat(queue.size()).isZero();
    assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);
  }

  @ParameterizedTest
  @MethodSource("setups")
  void clockNeverMovesBackwardsButDueTimersStillFire(Setup setup) {
    TimerQueue<String> queue = create(setup);
    queue.advance(setup.startTime() + 100, ignore());
    long now = queue.now();
    queue.schedule(now, "due");
    TimerHandle<String> later = queue.schedule(now + 10, "later");

    assertThat(queue.advance(now - 50, ignore())).isEqualTo(1);
    assertThat(queue.now()).isEqualTo(now);
    assertThat(queue.advance(now + Long.MIN_VALUE, ignore()))
        .as("a time more than Long.MAX_VALUE ahead is behind").isZero();
    assertThat(queue.now()).isEqualTo(now);
    assertThat(later.isPending()).isTrue();
  }

  @ParameterizedTest
  @MethodSource("setups")
  void deadlineLongMaxValueAheadIsAcceptedAndFiresOnTime(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long deadline = queue.now() + Long.MAX_VALUE;
    TimerHandle<String> timer = queue.schedule(deadline, "far");

    long delay = queue.nextExpiryDelay();
    assertThat(delay).isBetween(1L, Long.MAX_VALUE - 1);
    Recorder<String> recorder = new Recorder<>(queue);
    assertThat(queue.advance(deadline - 1, recorder)).isZero();
    assertThat(timer.isPending()).isTrue();
    assertThat(queue.nextExpiryDelay()).isBetween(1L, setup.resolution());

    queue.advance(deadline - 1 + setup.resolution(), recorder);
    assertThat(recorder.fired).containsExactly(timer);
    assertThat(recorder.firedAt.get(0) - deadline).isGreaterThanOrEqualTo(0);
  }

  @ParameterizedTest
  @MethodSource("setups")
  void nextExpiryDelayReachesAnyTimerInLogarithmicallyManySteps(Setup setup) {
    SplittableRandom random = new SplittableRandom(setup.startTime() ^ setup.resolution());
    for (int bits = 0; bits < 63; bits++) {
      TimerQueue<String> queue = create(setup);
      queue.advance(queue.now() + random.nextLong(1, 1L << 20), ignore());
      long distance = (1L << bits) + random.nextLong(1L << bits);
      long deadline = queue.now() + distance;
      TimerHandle<String> timer = queue.schedule(deadline, "t");
      int maxSteps = 2 * (64 - Long.numberOfLeadingZeros(distance)) + 4;

      Recorder<String> recorder = new Recorder<>(queue);
      int steps = 0;
      while (recorder.fired.isEmpty()) {
        long delay = queue.nextExpiryDelay();
        assertThat(delay).as("a pending timer means the delay is not MAX_VALUE")
            .isLessThan(Long.MAX_VALUE);
        queue.advance(queue.now() + delay, recorder);
        steps++;
        assertThat(steps).as("steps to reach a timer %d away; %s", distance, setup)
            .isLessThanOrEqualTo(maxSteps);
      }
      assertThat(recorder.fired).containsExactly(timer);
      assertThat(recorder.firedAt.get(0) - deadline).isGreaterThanOrEqualTo(0);
      assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);
    }
  }

  @ParameterizedTest
  @MethodSource("setups")
  void timersWithTheSameDeadlineAllFireInOneAdvance(Setup setup) {
    TimerQueue<Integer> queue = create(setup);
    long deadline = queue.now() + 3 * setup.resolution();
    for (int i = 0; i < 1000; i++) {
      queue.schedule(deadline, i);
    }

    Recorder<Integer> recorder = new Recorder<>(queue);
    assertThat(queue.advance(deadline - 1, recorder)).isZero();
    assertThat(queue.advance(deadline, recorder)).isEqualTo(1000);
    assertThat(recorder.payloads()).doesNotHaveDuplicates().hasSize(1000);
    assertThat(recorder.pendingWhenHandedOver).containsOnly(false);
  }

  // ---------------------------------------------------------------- cancel

  @ParameterizedTest
  @MethodSource("setups")
  void cancelledTimerNeverFiresAndOthersAreUntouched(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    TimerHandle<String> first = queue.schedule(now + 10, "first");
    TimerHandle<String> second = queue.schedule(now + 10, "second");
    TimerHandle<String> third = queue.schedule(now + 5_000, "third");

    assertThat(queue.cancel(second)).isTrue();
    assertThat(second.isPending()).isFalse();
    assertThat(queue.size()).isEqualTo(2);
    assertThat(queue.cancel(second)).as("cancelling twice").isFalse();
    assertThat(queue.size()).isEqualTo(2);

    Recorder<String> recorder = new Recorder<>(queue);
    queue.advance(now + 10_000, recorder);
    assertThat(recorder.fired).containsExactlyInAnyOrder(first, third);
    assertThat(queue.cancel(first)).as("cancelling a fired timer").isFalse();
    assertThat(queue.size()).isZero();
  }

  @ParameterizedTest
  @MethodSource("setups")
  void staleHandlesAreSafeForever(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    TimerHandle<String> fired = queue.schedule(now, "fired");
    TimerHandle<String> cancelled = queue.schedule(now + 7, "cancelled");
    queue.cancel(cancelled);
    queue.advance(now, ignore());
    TimerHandle<String> cleared = queue.schedule(now + 7, "cleared");
    queue.clear();
    TimerHandle<String> live = queue.schedule(now + 7, "live");

    for (int i = 0; i < 3; i++) {
      assertThat(queue.cancel(fired)).isFalse();
      assertThat(queue.cancel(cancelled)).isFalse();
      assertThat(queue.cancel(cleared)).isFalse();
    }
    assertThat(live.isPending()).isTrue();
    assertThat(queue.size()).isEqualTo(1);
    Recorder<String> recorder = new Recorder<>(queue);
    queue.advance(now + 7 + setup.resolution(), recorder);
    assertThat(recorder.fired).containsExactly(live);
  }

  // ---------------------------------------------------------------- reschedule

  @ParameterizedTest
  @MethodSource("setups")
  void rescheduleMovesAPendingTimerLaterOrEarlier(Setup setup) {
    long r = setup.resolution();
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    TimerHandle<String> later = queue.schedule(now + 10 * r, "later");
    TimerHandle<String> earlier = queue.schedule(now + 1_000 * r, "earlier");

    assertThat(queue.reschedule(later, now + 2_000 * r)).isTrue();
    assertThat(queue.reschedule(earlier, now + 5 * r)).isTrue();
    assertThat(later.deadline()).isEqualTo(now + 2_000 * r);
    assertThat(earlier.deadline()).isEqualTo(now + 5 * r);
    assertThat(queue.size()).isEqualTo(2);

    Recorder<String> recorder = new Recorder<>(queue);
    queue.advance(now + 5 * r - 1, recorder);
    assertThat(recorder.fired).isEmpty();
    queue.advance(now + 5 * r, recorder);
    assertThat(recorder.fired).containsExactly(earlier);
    queue.advance(now + 2_000 * r - 1, recorder);
    assertThat(recorder.fired).containsExactly(earlier);
    queue.advance(now + 2_000 * r, recorder);
    assertThat(recorder.fired).containsExactly(earlier, later);
  }

  @ParameterizedTest
  @MethodSource("setups")
  void rescheduleRearmsFiredCancelledClearedAndDrainedHandles(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    TimerHandle<String> fired = queue.schedule(now, "fired");
    queue.advance(now, ignore());
    TimerHandle<String> cancelled = queue.schedule(now + 5, "cancelled");
    queue.cancel(cancelled);
    TimerHandle<String> drained = queue.schedule(now + 5, "drained");
    queue.drain(ignore());
    TimerHandle<String> cleared = queue.schedule(now + 5, "cleared");
    queue.clear();

    List<TimerHandle<String>> stale = List.of(fired, cancelled, drained, cleared);
    for (TimerHandle<String> timer : stale) {
      assertThat(queue.reschedule(timer, now + 100)).as("%s was not pending", timer).isFalse();
      assertThat(timer.isPending()).isTrue();
      assertThat(timer.deadline()).isEqualTo(now + 100);
    }
    assertThat(queue.size()).isEqualTo(4);

    Recorder<String> recorder = new Recorder<>(queue);
    queue.advance(now + 99, recorder);
    assertThat(recorder.fired).isEmpty();
    queue.advance(now + 100 + setup.resolution(), recorder);
    assertThat(recorder.fired).containsExactlyInAnyOrderElementsOf(stale);
  }

  @ParameterizedTest
  @MethodSource("setups")
  void rescheduleToThePastIsDueAtTheNextAdvance(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    TimerHandle<String> timer = queue.schedule(now + 1_000_000, "t");

    assertThat(queue.reschedule(timer, now - 1)).isTrue();
    assertThat(queue.nextExpiryDelay()).isZero();
    Recorder<String> recorder = new Recorder<>(queue);
    assertThat(queue.advance(now, recorder)).isEqualTo(1);
    assertThat(recorder.fired).containsExactly(timer);
  }

  // ---------------------------------------------------------------- foreign handles

  @ParameterizedTest
  @MethodSource("setups")
  void handlesOfOtherQueuesAreRejectedWithoutEffect(Setup setup) {
    TimerQueue<String> queue = create(setup);
    TimerQueue<String> other = create(setup);
    TimerHandle<String> own = queue.schedule(queue.now() + 10, "own");
    TimerHandle<String> othersTimer = other.schedule(other.now() + 10, "other's");
    TimerHandle<String> heapTimer = TimerQueues.<String>create("heap").schedule(10, "heap's");
    TimerHandle<String> madeUp = new MadeUpHandle();

    for (TimerHandle<String> foreign : List.of(othersTimer, heapTimer, madeUp)) {
      assertThatThrownBy(() -> queue.cancel(foreign))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> queue.reschedule(foreign, queue.now()))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(othersTimer.isPending()).isTrue();
    assertThat(other.size()).isEqualTo(1);
    assertThat(queue.size()).isEqualTo(1);
    assertThat(own.isPending()).isTrue();
  }

  private static final class MadeUpHandle implements TimerHandle<String> {
    @Override
    public String payload() {
      return "made up";
    }

    @Override
    public long deadline() {
      return 0;
    }

    @Override
    public boolean isPending() {
      return true;
    }
  }

  // ---------------------------------------------------------------- scheduleWithin

  @ParameterizedTest
  @MethodSource("setups")
  void scheduleWithinFiresNoEarlierThanEarliestAndNoLaterThanLatestWould(Setup setup) {
    SplittableRandom random = new SplittableRandom(setup.startTime() * 31 + setup.resolution());
    for (int i = 0; i < 200; i++) {
      TimerQueue<String> queue = create(setup);
      long elapsed = random.nextLong(0, 1L << 16);
      queue.advance(setup.startTime() + elapsed, ignore());
      long earliest = queue.now() + random.nextLong(-100, 1L << random.nextInt(1, 24));
      long latest = earliest + random.nextLong(0, 1L << random.nextInt(1, 24));
      TimerHandle<String> timer = queue.scheduleWithin(earliest, latest, "t");
      long chosen = timer.deadline();
      assertThat(chosen - earliest).as("chosen deadline before earliest").isGreaterThanOrEqualTo(0);
      assertThat(latest - chosen).as("chosen deadline after latest").isGreaterThanOrEqualTo(0);

      long mustFireBy = setup.startTime()
          + setup.mustFireBy(elapsed, Setup.deadlineKey(elapsed, queue.now(), latest));
      long step = 1 + random.nextLong(Math.max(1, (latest - queue.now()) / 64 + 1));
      Recorder<String> recorder = new Recorder<>(queue);
      while (true) {
        queue.advance(queue.now() + step, recorder);
        if (!recorder.fired.isEmpty()) {
          break;
        }
        assertThat(queue.now() - mustFireBy).as("not fired by %d; range [%d, %d], %s",
            mustFireBy, earliest, latest, setup).isLessThan(0);
      }
      assertThat(recorder.firedAt.get(0) - earliest).as("fired before earliest")
          .isGreaterThanOrEqualTo(0);
    }
  }

  @ParameterizedTest
  @MethodSource("setups")
  void scheduleWithinRejectsEarliestAfterLatest(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();

    assertThatThrownBy(() -> queue.scheduleWithin(now + 11, now + 10, "t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(Long.toString(now + 11))
        .hasMessageContaining(Long.toString(now + 10));
    assertThat(queue.size()).isZero();

    TimerHandle<String> exact = queue.scheduleWithin(now + 10, now + 10, "exact");
    assertThat(exact.deadline()).isEqualTo(now + 10);
  }

  @ParameterizedTest
  @MethodSource("setups")
  void scheduleWithinWhoseLatestWrapsPastTheClockEndsLongMaxValueAhead(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    long earliest = now + 10;
    long latest = earliest + Long.MAX_VALUE;

    TimerHandle<String> timer = queue.scheduleWithin(earliest, latest, "t");

    assertThat(timer.deadline() - earliest).isGreaterThanOrEqualTo(0);
    assertThat(now + Long.MAX_VALUE - timer.deadline()).isGreaterThanOrEqualTo(0);
    Recorder<String> recorder = new Recorder<>(queue);
    assertThat(queue.advance(earliest - 1, recorder)).as("fired before earliest").isZero();
    queue.advance(now + Long.MAX_VALUE - 1, recorder);
    queue.advance(now + Long.MAX_VALUE - 1 + setup.resolution(), recorder);
    assertThat(recorder.fired).containsExactly(timer);
    // It may fire more than Long.MAX_VALUE after earliest, so compare distances from the start.
    assertThat(Long.compareUnsigned(recorder.firedAt.get(0) - now, earliest - now))
        .as("fired before earliest").isGreaterThanOrEqualTo(0);
  }

  // ---------------------------------------------------------------- advance

  @ParameterizedTest
  @MethodSource("setups")
  void handlerSeesTheNewTimeAndATimerNoLongerPending(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long target = queue.now() + 50 * setup.resolution();
    queue.schedule(queue.now() + 10, "a");
    queue.schedule(target, "b");
    queue.schedule(target + 10 * setup.resolution(), "c");

    Recorder<String> recorder = new Recorder<>(queue);
    assertThat(queue.advance(target, recorder)).isEqualTo(2);
    assertThat(recorder.payloads()).containsExactlyInAnyOrder("a", "b");
    assertThat(recorder.firedAt).containsOnly(target);
    assertThat(recorder.pendingWhenHandedOver).containsOnly(false);
    assertThat(queue.now()).isEqualTo(target);
    assertThat(queue.size()).isEqualTo(1);
  }

  @ParameterizedTest
  @MethodSource("setups")
  void limitBoundsHowManyFireAndTheRestStayDue(Setup setup) {
    TimerQueue<Integer> queue = create(setup);
    long now = queue.now();
    for (int i = 0; i < 10; i++) {
      queue.schedule(now - i, i);
    }
    TimerHandle<Integer> future = queue.schedule(now + 1_000_000, 99);

    Recorder<Integer> recorder = new Recorder<>(queue);
    assertThat(queue.advance(now, recorder, 3)).isEqualTo(3);
    assertThat(queue.size()).isEqualTo(8);
    assertThat(queue.nextExpiryDelay()).isZero();
    List<TimerHandle<Integer>> visited = new ArrayList<>();
    queue.forEach(visited::add);
    assertThat(visited).hasSize(8).doesNotContainAnyElementsOf(recorder.fired).contains(future);

    assertThat(queue.advance(now, recorder, 3)).isEqualTo(3);
    assertThat(queue.advance(now, recorder, 100)).isEqualTo(4);
    assertThat(recorder.payloads()).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    assertThat(queue.size()).isEqualTo(1);
    assertThat(future.isPending()).isTrue();
  }

  /** What a handler does to the other due timers, in the test of the limit's quota below. */
  enum OtherDueTimers {
    CANCELLED,
    REARMED_LATER,
    REARMED_DUE
  }

  @ParameterizedTest
  @MethodSource("setups")
  void limitIsSpentOnlyOnTimersHandedOutWhateverTheHandlerCancelsOrRearms(Setup setup) {
    for (OtherDueTimers action : OtherDueTimers.values()) {
      for (int limit = 2; limit <= 6; limit++) {
        TimerQueue<Integer> queue = create(setup);
        long now = queue.now();
        List<TimerHandle<Integer>> timers = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
          timers.add(queue.schedule(now - i % 4, i));
        }
        // On its first call the handler disturbs every other due timer but the last three, so a
        // strategy that set aside a batch of `limit` due timers beforehand loses most of it.
        List<TimerHandle<Integer>> disturbed = new ArrayList<>();
        Recorder<Integer> recorder = new Recorder<>(queue);
        int fired = queue.advance(now, timer -> {
          recorder.accept(timer);
          if (recorder.fired.size() > 1) {
            return;
          }
          for (TimerHandle<Integer> other : timers.subList(0, 9)) {
            if (other == timer) {
              continue;
            }
            disturbed.add(other);
            switch (action) {
              case CANCELLED -> queue.cancel(other);
              case REARMED_LATER -> queue.reschedule(other, now + 1_000_000_000L);
              case REARMED_DUE -> queue.reschedule(other, now);
            }
          }
        }, limit);

        List<TimerHandle<Integer>> undisturbed = new ArrayList<>(timers);
        undisturbed.removeAll(disturbed);
        int expected = Math.min(limit, undisturbed.size());
        assertThat(fired)
            .as("%s, limit %d: fired %s; short of the limit, no undisturbed due timer may be left",
                action, limit, recorder.payloads())
            .isEqualTo(expected);
        assertThat(recorder.fired).isSubsetOf(undisturbed);
        int rest = queue.advance(now, recorder);
        assertThat(recorder.fired).containsAll(undisturbed);
        assertThat(rest).isEqualTo(undisturbed.size() - expected
            + (action == OtherDueTimers.REARMED_DUE ? disturbed.size() : 0));
      }
    }
  }

  @ParameterizedTest
  @MethodSource("setups")
  void limitBelowOneIsRejectedAndTheClockDoesNotMove(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    TimerHandle<String> timer = queue.schedule(now, "due");

    for (int limit : new int[] {0, -1, Integer.MIN_VALUE}) {
      assertThatThrownBy(() -> queue.advance(now + 10, ignore(), limit))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(Integer.toString(limit));
      assertThat(queue.now()).isEqualTo(now);
      assertThat(timer.isPending()).isTrue();
    }
    assertThatThrownBy(() -> queue.advance(now + 10, null))
        .isInstanceOf(NullPointerException.class);
    assertThat(queue.now()).isEqualTo(now);
    assertThat(timer.isPending()).isTrue();
  }

  // ---------------------------------------------------------------- handlers

  @ParameterizedTest
  @MethodSource("setups")
  void timerScheduledByAHandlerFiresInTheNextAdvanceNotThisOne(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    queue.schedule(now, "first");
    List<TimerHandle<String>> scheduledInHandler = new ArrayList<>();
    Recorder<String> recorder = new Recorder<>(queue);

    int fired = queue.advance(now, timer -> {
      recorder.accept(timer);
      if (timer.payload().equals("first")) {
        scheduledInHandler.add(queue.schedule(queue.now(), "made due"));
        scheduledInHandler.add(queue.schedule(queue.now() - 100, "made overdue"));
      }
    });

    assertThat(fired).isEqualTo(1);
    assertThat(recorder.payloads()).containsExactly("first");
    assertThat(scheduledInHandler).allMatch(TimerHandle::isPending);
    assertThat(queue.nextExpiryDelay()).isZero();
    recorder.reset();
    assertThat(queue.advance(now, recorder)).isEqualTo(2);
    assertThat(recorder.fired).containsExactlyInAnyOrderElementsOf(scheduledInHandler);
  }

  @ParameterizedTest
  @MethodSource("setups")
  void handlerMayRearmTheTimerItIsHandedAsAPeriodicTimer(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long period = 3 * setup.resolution();
    TimerHandle<String> periodic = queue.schedule(queue.now() + period, "tick");
    int[] ticks = new int[1];
    Consumer<TimerHandle<String>> rearm = timer -> {
      ticks[0]++;
      assertThat(queue.reschedule(timer, queue.now() + period)).isFalse();
    };

    for (int i = 1; i <= 50; i++) {
      assertThat(queue.advance(queue.now() + period, rearm)).isEqualTo(1);
      assertThat(ticks[0]).isEqualTo(i);
      assertThat(periodic.isPending()).isTrue();
      assertThat(queue.size()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @MethodSource("setups")
  void timerRearmedAtNowByItsHandlerFiresInTheNextAdvance(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    TimerHandle<String> timer = queue.schedule(now, "again");
    Consumer<TimerHandle<String>> rearmNow = fired -> queue.reschedule(fired, queue.now());

    for (int i = 0; i < 5; i++) {
      assertThat(queue.advance(now, rearmNow)).isEqualTo(1);
      assertThat(timer.isPending()).isTrue();
    }
  }

  @ParameterizedTest
  @MethodSource("setups")
  void dueTimerCancelledByAHandlerBeforeItsTurnNeverFires(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    List<TimerHandle<String>> timers = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      timers.add(queue.schedule(now - i % 3, "t" + i));
    }
    List<Boolean> cancelResults = new ArrayList<>();
    Recorder<String> recorder = new Recorder<>(queue);

    int fired = queue.advance(now, timer -> {
      recorder.accept(timer);
      for (TimerHandle<String> other : timers) {
        if (other != timer) {
          cancelResults.add(queue.cancel(other));
        }
      }
    });

    assertThat(fired).isEqualTo(1);
    assertThat(recorder.fired).hasSize(1);
    assertThat(cancelResults).containsOnly(true);
    assertThat(queue.size()).isZero();
    assertThat(queue.advance(now + 1_000, recorder)).isZero();
  }

  @ParameterizedTest
  @MethodSource("setups")
  void handlerMayClearTheQueueAndTheRemainingDueTimersNeverFire(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    List<TimerHandle<String>> timers = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      timers.add(queue.schedule(now, "due" + i));
    }
    timers.add(queue.schedule(now + 100, "later"));

    int fired = queue.advance(now, timer -> queue.clear());

    assertThat(fired).isEqualTo(1);
    assertThat(queue.size()).isZero();
    assertThat(timers).noneMatch(TimerHandle::isPending);
    assertThat(queue.advance(now + 1_000, ignore())).isZero();
  }

  @ParameterizedTest
  @MethodSource("setups")
  void advanceOrDrainFromAHandlerIsAnIllegalStateAndLosesNothing(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    for (int i = 0; i < 4; i++) {
      queue.schedule(now, "due" + i);
    }

    Throwable fromAdvance = catchThrowable(
        () -> queue.advance(now, timer -> queue.advance(queue.now() + 1, ignore())));
    assertThat(fromAdvance).isInstanceOf(IllegalStateException.class);
    assertThat(queue.now()).isEqualTo(now);
    assertThat(queue.size()).isEqualTo(3);

    Throwable fromDrain = catchThrowable(() -> queue.advance(now, timer -> queue.drain(ignore())));
    assertThat(fromDrain).isInstanceOf(IllegalStateException.class);
    assertThat(queue.size()).isEqualTo(2);

    Recorder<String> recorder = new Recorder<>(queue);
    assertThat(queue.advance(now, recorder)).isEqualTo(2);
  }

  @ParameterizedTest
  @MethodSource("setups")
  void throwingHandlerCountsItsTimerAsFiredAndLeavesTheOthersPending(Setup setup) {
    TimerQueue<Integer> queue = create(setup);
    long now = queue.now();
    for (int i = 0; i < 5; i++) {
      queue.schedule(now - i, i);
    }
    List<TimerHandle<Integer>> later = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      later.add(queue.schedule(now + 100 * (i + 1), 10 + i));
    }
    RuntimeException failure = new RuntimeException("handler failed");
    List<TimerHandle<Integer>> handedOver = new ArrayList<>();

    Throwable thrown = catchThrowable(() -> queue.advance(now, timer -> {
      handedOver.add(timer);
      if (handedOver.size() == 2) {
        throw failure;
      }
    }));

    assertThat(thrown).isSameAs(failure);
    assertThat(handedOver).hasSize(2).noneMatch(TimerHandle::isPending);
    assertThat(queue.size()).isEqualTo(6);
    assertThat(queue.nextExpiryDelay()).isZero();
    Recorder<Integer> recorder = new Recorder<>(queue);
    assertThat(queue.advance(now, recorder)).isEqualTo(3);
    List<Integer> payloads = new ArrayList<>(recorder.payloads());
    handedOver.forEach(timer -> payloads.add(timer.payload()));
    assertThat(payloads).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    assertThat(queue.advance(now + 300 + setup.resolution(), recorder)).isEqualTo(3);
    assertThat(later).noneMatch(TimerHandle::isPending);
  }

  // ---------------------------------------------------------------- drain, clear, forEach

  @ParameterizedTest
  @MethodSource("setups")
  void drainHandsOutEveryPendingTimerWhateverItsDeadline(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    List<TimerHandle<String>> timers = new ArrayList<>();
    timers.add(queue.schedule(now - 5, "due"));
    timers.add(queue.schedule(now + 5, "soon"));
    timers.add(queue.schedule(now + Long.MAX_VALUE, "far"));
    timers.add(queue.scheduleWithin(now + 1_000, now + 100_000, "ranged"));
    List<TimerHandle<String>> drained = new ArrayList<>();
    List<Boolean> pending = new ArrayList<>();

    assertThat(queue.drain(timer -> {
      drained.add(timer);
      pending.add(timer.isPending());
    })).isEqualTo(4);

    assertThat(drained).containsExactlyInAnyOrderElementsOf(timers);
    assertThat(pending).containsOnly(false);
    assertThat(queue.size()).isZero();
    assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);
    assertThat(queue.now()).isEqualTo(now);
    assertThat(queue.advance(now + Long.MAX_VALUE, ignore())).isZero();
  }

  @ParameterizedTest
  @MethodSource("setups")
  void drainWhoseSinkThrowsKeepsTheTimersNotYetHandedOver(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    List<TimerHandle<String>> timers = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      timers.add(queue.schedule(now + i * 1_000L, "t" + i));
    }
    RuntimeException failure = new RuntimeException("sink failed");
    List<TimerHandle<String>> drained = new ArrayList<>();

    Throwable thrown = catchThrowable(() -> queue.drain(timer -> {
      drained.add(timer);
      if (drained.size() == 3) {
        throw failure;
      }
    }));

    assertThat(thrown).isSameAs(failure);
    assertThat(drained).hasSize(3).noneMatch(TimerHandle::isPending);
    assertThat(queue.size()).isEqualTo(7);
    Recorder<String> recorder = new Recorder<>(queue);
    queue.advance(now + 20_000, recorder);
    List<TimerHandle<String>> all = new ArrayList<>(drained);
    all.addAll(recorder.fired);
    assertThat(all).containsExactlyInAnyOrderElementsOf(timers);
  }

  @ParameterizedTest
  @MethodSource("setups")
  void clearRemovesEverythingAndTheQueueStaysUsable(Setup setup) {
    TimerQueue<String> queue = create(setup);
    long now = queue.now();
    List<TimerHandle<String>> timers = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      timers.add(queue.schedule(now + i * 37L - 10, "t" + i));
    }

    queue.clear();

    assertThat(queue.size()).isZero();
    assertThat(queue.nextExpiryDelay()).isEqualTo(Long.MAX_VALUE);
    assertThat(timers).noneMatch(TimerHandle::isPending);
    assertThat(queue.now()).isEqualTo(now);
    assertThat(queue.advance(now + 10_000, ignore())).isZero();
    TimerHandle<String> fresh = queue.schedule(queue.now() + 1, "fresh");
    Recorder<String> recorder = new Recorder<>(queue);
    queue.advance(queue.now() + 1 + setup.resolution(), recorder);
    assertThat(recorder.fired).containsExactly(fresh);
  }

  @ParameterizedTest
  @MethodSource("setups")
  void forEachVisitsEveryPendingTimerOnceAndChangesNothing(Setup setup) {
    TimerQueue<Integer> queue = create(setup);
    long now = queue.now();
    Set<TimerHandle<Integer>> pending = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int i = 0; i < 300; i++) {
      pending.add(queue.schedule(now + (i % 7 == 0 ? -i : i * 1_000L), i));
    }
    queue.advance(now, ignore(), 5);
    pending.removeIf(timer -> !timer.isPending());

    List<TimerHandle<Integer>> visited = new ArrayList<>();
    queue.forEach(visited::add);

    assertThat(visited).hasSize(pending.size()).doesNotHaveDuplicates();
    assertThat(visited).containsExactlyInAnyOrderElementsOf(pending);
    assertThat(queue.size()).isEqualTo(pending.size());
    assertThat(visited).allMatch(TimerHandle::isPending);
  }

  // ---------------------------------------------------------------- input

  @Test
  void nullArgumentsAreRejected() throws Exception {
    TimerQueue<String> queue = create(TimerConfig.defaults());
    TimerHandle<String> timer = queue.schedule(5, "t");
    Map<Class<?>, Object> valid = Map.of(
        long.class, 0L, int.class, 0, Object.class, "payload",
        TimerHandle.class, timer, Consumer.class, ignore());
    for (Method method : TimerQueue.class.getMethods()) {
      Class<?>[] types = method.getParameterTypes();
      for (int nullAt = 0; nullAt < types.length; nullAt++) {
        if (types[nullAt].isPrimitive()) {
          continue;
        }
        Object[] arguments = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
          arguments[i] = (i == nullAt) ? null : valid.get(types[i]);
        }
        Throwable thrown = catchThrowable(() -> method.invoke(queue, arguments));

        assertThat(thrown).as("%s with null argument %d", method, nullAt)
            .isInstanceOf(InvocationTargetException.class)
            .cause().isInstanceOf(NullPointerException.class);
      }
    }
    assertThat(queue.now()).isZero();
    assertThat(queue.size()).isEqualTo(1);
    assertThat(timer.isPending()).isTrue();
  }

  // ---------------------------------------------------------------- randomized

  // In a thread of its own, so that a structure broken into a loop, which never sees an
  // interrupt, fails this test after the timeout instead of stalling the build.
  @ParameterizedTest
  @MethodSource("setups")
  @Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void randomOperationsAgreeWithTheContract(Setup setup) {
    int operations = Math.max(1, Integer.getInteger("timerqueue.conformance.ops", 100_000) / 7);
    long seed = Long.getLong("timerqueue.conformance.seed",
        Setup.ORIGIN_SEED ^ setup.startTime() * 0x9E3779B97F4A7C15L ^ setup.resolution());
    new DifferentialRun(create(setup), setup, seed, strategy()).run(operations);
  }
}
