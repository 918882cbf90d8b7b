package io.github.timerqueue.runtime;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The JFR event of a task that started later after its deadline than the service's {@link
 * TimerService.Builder#lateTimerThreshold threshold}. Created only when JFR records it: {@link
 * #TYPE}{@code .isEnabled()} is asked only once a task is that late, so a service with JFR off
 * pays one comparison per task for it.
 */
@Name(LateTimerEvent.NAME)
@Label("Late Timer")
@Category({"timerqueue", "Timers"})
@Description("A timer's task started later after its deadline than the service's threshold")
@StackTrace(false)
final class LateTimerEvent extends Event {
  static final String NAME = "io.github.timerqueue.LateTimer";
  static final EventType TYPE = EventType.getEventType(LateTimerEvent.class);

  @Label("Strategy")
  String strategy;

  @Label("Lateness")
  @Description("From the deadline to the start of the task, on the service's ticker")
  @Timespan
  long lateness;

  @Label("Threshold")
  @Timespan
  long threshold;

  @Label("Task")
  @Description("The class of the task")
  String task;
}
