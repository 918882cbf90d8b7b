package io.github.timerqueue.bench;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.agrona.DeadlineTimerWheel;

/**
 * How the benchmarks and the trace replay drive Agrona's {@link DeadlineTimerWheel}: sized for the
 * load, and advanced to a time as a {@code TimerQueue} is.
 */
public final class AgronaWheels {
  /** The pending timers per spoke the wheel is sized for. */
  public static final int TIMERS_PER_SPOKE = 16;
  /** The fewest spokes a wheel is given. */
  public static final int MIN_SPOKES = 64;
  /** The most spokes a wheel is given. */
  public static final int MAX_SPOKES = 1 << 16;

  /**
   * The JVM option every JVM that measures Agrona's wheel runs with: C2 inlines {@code
   * DeadlineTimerWheel.scheduleTimer} into the handler that re-arms a fired timer.
   *
   * <p>Without it, whether C2 inlines that 111-byte method into the handler (past the 35 bytes it
   * inlines unconditionally) depends on the handler's profile counting 100 calls of it
   * ({@code InlineFrequencyCount}) when the first compilation that inlines the handler starts.
   * {@code poll}'s loop, which scans every slot of a spoke, makes {@code poll} hot within
   * milliseconds of the first advances, while few timers fire, and once a compilation has inlined
   * the 19-byte handler the handler is never called again and its count stops where it was: every
   * later compilation sees the same count. So each JVM drew one of two modes for its life (under
   * {@code -XX:+PrintInlining}, {@code scheduleTimer (111 bytes) too big} under {@code
   * AgronaTimers::rearm}, or {@code inline (hot)}), and the expiry flow at 10^6 timers cost up to
   * about 1.5 times as much per fired timer in the first. A user's handler draws the same lot; the
   * benchmark measures the peer in its better mode, every time.
   */
  public static final String INLINE_SCHEDULE_TIMER =
      "-XX:CompileCommand=inline,org.agrona.DeadlineTimerWheel::scheduleTimer";

  private AgronaWheels() {}

  /**
   * Fails unless the contender is measured in its better mode: for {@value Contenders#AGRONA}, the
   * JVM must have been started with {@link #INLINE_SCHEDULE_TIMER} (JMH's {@code -jvmArgsAppend}
   * on the command line replaces the one the benchmarks' {@code @Fork} gives).
   *
   * @param contender the contender about to be measured
   * @param jvmArguments the arguments the JVM was started with
   * @throws IllegalStateException if the contender is Agrona and the option is missing
   */
  static void requireInliningOption(String contender, List<String> jvmArguments) {
    if (contender.equals(Contenders.AGRONA) && !jvmArguments.contains(INLINE_SCHEDULE_TIMER)) {
      throw new IllegalStateException("measuring " + Contenders.AGRONA + " needs the JVM option "
          + INLINE_SCHEDULE_TIMER + " (in some JVMs its flows are slower without it); this JVM"
          + " has " + jvmArguments);
    }
  }

  /** {@link #requireInliningOption(String, List)} for this JVM. */
  static void requireInliningOption(String contender) {
    requireInliningOption(contender, ManagementFactory.getRuntimeMXBean().getInputArguments());
  }

  /**
   * The number of spokes for a population: about {@value #TIMERS_PER_SPOKE} timers per spoke, a
   * power of two from {@value #MIN_SPOKES} to {@value #MAX_SPOKES}. Agrona's spokes never change
   * number and each spoke is an array scanned whole on every poll, so a user sizes the wheel for
   * the load, and so do we.
   *
   * @param timers the peak number of pending timers, at least 0
   * @return the spokes to create the wheel with
   */
  public static int spokesFor(long timers) {
    long wanted = Math.max(timers / TIMERS_PER_SPOKE, 1);
    long spokes = Long.highestOneBit(wanted);
    if (spokes < wanted) {
      spokes <<= 1;
    }
    return (int) Math.min(Math.max(spokes, MIN_SPOKES), MAX_SPOKES);
  }

  /**
   * Moves the wheel's clock to {@code now}, firing what a {@code TimerQueue}'s {@code advance}
   * would fire: {@code poll} looks at one tick of the wheel per call, so it is called until the
   * wheel's tick stops moving. O(ticks passed + timers fired + timers in the spokes passed).
   *
   * @param wheel the wheel
   * @param now the time to move to
   * @param handler receives each timer that fires
   * @return how many timers fired
   */
  public static int advance(DeadlineTimerWheel wheel, long now,
      DeadlineTimerWheel.TimerHandler handler) {
    int fired = 0;
    long tick;
    do {
      tick = wheel.currentTickTime();
      fired += wheel.poll(now, handler, Integer.MAX_VALUE);
    } while (wheel.currentTickTime() != tick);
    return fired;
  }
}
