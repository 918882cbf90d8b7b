/**
 * JMH benchmarks that compare every registered timer strategy with each other and with Agrona's
 * {@code DeadlineTimerWheel}, and {@link io.github.timerqueue.bench.Compare}, the launcher behind
 * {@code timer-bench/run} that runs them and prints, charts and saves the results.
 *
 * <h2>Fairness</h2>
 * <ul>
 *   <li>Contenders are found at run time ({@code TimerQueues.strategies()} plus {@code agrona}),
 *       all created with the same start time and resolution ({@code Scenario}) and default
 *       options.
 *   <li>One adapter interface ({@code Timers}) carries every workload to every contender, so the
 *       workload code is the same for all; {@code TimersAgreementTest} checks that all of them
 *       fire the same number of timers at every advance.
 *   <li>Every random draw (delays, which timer to touch) is pre-generated from a fixed seed before
 *       measurement, so every contender sees the same sequence and the generator is not measured.
 *   <li>Queues are filled in the set-up, outside measurement; the population is checked before
 *       and after every run.
 *   <li>Handles are reused ({@code reschedule} re-arms a cancelled or fired handle), so the bytes
 *       per operation reported by {@code -prof gc} are the strategy's own.
 *   <li>Results are returned from the benchmark methods, which JMH consumes with its Blackhole.
 *   <li>Where Agrona's API cannot express a workload, the result says how it was run or that it
 *       was not ({@code Workload}'s notes), rather than approximating silently.
 * </ul>
 *
 * <p>The module has no {@code module-info}: the benchmarks run from a shaded jar on the class
 * path, where strategies register through {@code META-INF/services}.
 */
package io.github.timerqueue.bench;
