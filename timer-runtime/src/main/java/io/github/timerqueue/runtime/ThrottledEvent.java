package io.github.timerqueue.runtime;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * The JFR event of a call that waited because the timer thread's backlog was full (see {@link
 * TimerService}'s "Back-pressure"); its duration is the wait. Created only on that slow path and
 * only when JFR records it ({@link #TYPE}{@code .isEnabled()}), so it costs a caller that does not
 * wait nothing.
 */
@Name(ThrottledEvent.NAME)
@Label("Timer Producer Throttled")
@Category({"timerqueue", "Timers"})
@Description("A call to schedule or re-arm a timeout waited for the timer thread's backlog")
final class ThrottledEvent extends Event {
  static final String NAME = "io.github.timerqueue.Throttled";
  static final EventType TYPE = EventType.getEventType(ThrottledEvent.class);

  @Label("Lane")
  @Description("The lane of the request queue whose share of the backlog was full")
  int lane;

  @Label("Lane Share")
  @Description("How many requests and due timers the lane may have out")
  long laneShare;
}
