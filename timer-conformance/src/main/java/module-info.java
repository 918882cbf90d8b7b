/**
 * The conformance suite of the {@link io.github.timerqueue.TimerQueue} contract: {@link
 * io.github.timerqueue.conformance.TimerQueueConformanceTest}, which a strategy's tests extend, and
 * the helpers a strategy's own tests share ({@link
 * io.github.timerqueue.conformance.AllocationCounter}, {@link
 * io.github.timerqueue.conformance.ModulePathProviders}).
 *
 * <p>JUnit Jupiter and AssertJ are required transitively: a subclass of the suite uses their
 * annotations and assertions. The package is open so that JUnit can run the suite's package-private
 * test methods when the tests run on the module path.
 */
module io.github.timerqueue.conformance {
  requires transitive io.github.timerqueue;
  requires transitive org.junit.jupiter.api;
  requires transitive org.junit.jupiter.params;
  requires transitive org.assertj.core;
  // com.sun.management.ThreadMXBean, HotSpot's per-thread allocation counter.
  requires jdk.management;

  exports io.github.timerqueue.conformance;

  opens io.github.timerqueue.conformance to org.junit.platform.commons;
}
