package io.github.timerqueue.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.github.timerqueue.TimerConfig;
import io.github.timerqueue.TimerHandle;
import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Shows that the conformance suite can fail: it runs the suite against deliberately broken
 * strategies (the reference heap behind a wrapper that breaks one rule) and expects failures.
 */
class ConformanceSuiteSelfTest {

  @Test
  void suiteCatchesATimerFiringOneUnitEarly() {
    Events failed = failedTests(FiresOneUnitEarly.class);

    assertThat(failed.count()).isPositive();
    assertThat(failedNames(failed)).contains(
        "timerFiresNeitherBeforeItsDeadlineNorAfterItIsRoundedUpToTheResolution(Setup)",
        "randomOperationsAgreeWithTheContract(Setup)");
  }

  @Test
  void suiteCatchesATimerFiringLaterThanTheResolutionAllows() {
    Events failed = failedTests(FiresOneResolutionLate.class);

    assertThat(failedNames(failed)).contains(
        "timerFiresNeitherBeforeItsDeadlineNorAfterItIsRoundedUpToTheResolution(Setup)",
        "randomOperationsAgreeWithTheContract(Setup)");
  }

  @Test
  void suiteCatchesACancelThatReportsTheWrongResult() {
    Events failed = failedTests(CancelAlwaysReportsPending.class);

    assertThat(failedNames(failed)).contains(
        "cancelledTimerNeverFiresAndOthersAreUntouched(Setup)",
        "randomOperationsAgreeWithTheContract(Setup)");
  }

  @Test
  void suiteCatchesTimersScheduledByAHandlerFiringInTheSameAdvance() {
    Events failed = failedTests(FiresTimersMadeDueByItsHandlers.class);

    assertThat(failedNames(failed)).contains(
        "timerScheduledByAHandlerFiresInTheNextAdvanceNotThisOne(Setup)");
  }

  @Test
  void suiteCatchesALimitedAdvanceThatStopsShortWithTimersStillDue() {
    Events failed = failedTests(StopsOneShortOfTheLimit.class);

    assertThat(failedNames(failed)).contains(
        "limitIsSpentOnlyOnTimersHandedOutWhateverTheHandlerCancelsOrRearms(Setup)",
        "randomOperationsAgreeWithTheContract(Setup)");
  }

  @Test
  void suiteCatchesANullHandleThatIsNotRejected() {
    Events failed = failedTests(CancelAcceptsNull.class);

    assertThat(failed.stream().map(event -> event.getTestDescriptor().getDisplayName()))
        .containsExactly("nullArgumentsAreRejected()");
  }

  @Test
  void referenceHeapPassesTheWholeSuite() {
    Events results = EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(CorrectHeap.class))
        .execute()
        .testEvents();

    assertThat(results.failed().count()).isZero();
    assertThat(results.succeeded().count()).isGreaterThan(100);
  }

  private static Events failedTests(Class<?> suite) {
    return EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(suite))
        .configurationParameter("junit.jupiter.execution.parallel.enabled", "false")
        .execute()
        .testEvents()
        .failed();
  }

  private static List<String> failedNames(Events failed) {
    return failed.stream()
        .map(event -> event.getTestDescriptor().getParent().orElseThrow().getDisplayName())
        .distinct()
        .collect(Collectors.toList());
  }

  /** The suite on the heap's registered name; the broken ones wrap the heap they create. */
  abstract static class OnHeap extends TimerQueueConformanceTest {
    @Override
    protected String strategy() {
      return "heap";
    }
  }

  /** The heap itself, run through the same path as the broken ones. */
  static class CorrectHeap extends OnHeap {}

  /** Advances the real queue one unit further than asked. */
  static class FiresOneUnitEarly extends OnHeap {
    @Override
    protected <T> TimerQueue<T> create(TimerConfig config) {
      return new Broken<T>(TimerQueues.create("heap", config)) {
        @Override
        public int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit) {
          return delegate.advance(now + 1, onExpired, limit);
        }
      };
    }
  }

  /** Schedules every timer one resolution later than asked. */
  static class FiresOneResolutionLate extends OnHeap {
    @Override
    protected <T> TimerQueue<T> create(TimerConfig config) {
      return new Broken<T>(TimerQueues.create("heap", config)) {
        @Override
        public TimerHandle<T> schedule(long deadline, T payload) {
          return delegate.schedule(deadline + config.resolution(), payload);
        }
      };
    }
  }

  /** Reports every cancel as having found a pending timer. */
  static class CancelAlwaysReportsPending extends OnHeap {
    @Override
    protected <T> TimerQueue<T> create(TimerConfig config) {
      return new Broken<T>(TimerQueues.create("heap", config)) {
        @Override
        public boolean cancel(TimerHandle<T> timer) {
          delegate.cancel(timer);
          return true;
        }
      };
    }
  }

  /** Answers {@code false} to a null handle instead of throwing. */
  static class CancelAcceptsNull extends OnHeap {
    @Override
    protected <T> TimerQueue<T> create(TimerConfig config) {
      return new Broken<T>(TimerQueues.create("heap", config)) {
        @Override
        public boolean cancel(TimerHandle<T> timer) {
          return timer != null && delegate.cancel(timer);
        }
      };
    }
  }

  /** Advances twice, so that timers its handlers made due fire in the same advance. */
  static class FiresTimersMadeDueByItsHandlers extends OnHeap {
    @Override
    protected <T> TimerQueue<T> create(TimerConfig config) {
      return new Broken<T>(TimerQueues.create("heap", config)) {
        @Override
        public int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit) {
          // A second round fires what the first round's handlers made due.
          int fired = delegate.advance(now, onExpired, limit);
          if (fired > 0 && fired < limit) {
            fired += delegate.advance(now, onExpired, limit - fired);
          }
          return fired;
        }
      };
    }
  }

  /** Hands out one timer fewer than a limited advance may, though more are due. */
  static class StopsOneShortOfTheLimit extends OnHeap {
    @Override
    protected <T> TimerQueue<T> create(TimerConfig config) {
      return new Broken<T>(TimerQueues.create("heap", config)) {
        @Override
        public int advance(long now, Consumer<? super TimerHandle<T>> onExpired, int limit) {
          int shortLimit = limit == Integer.MAX_VALUE || limit == 1 ? limit : limit - 1;
          return delegate.advance(now, onExpired, shortLimit);
        }
      };
    }
  }
}
