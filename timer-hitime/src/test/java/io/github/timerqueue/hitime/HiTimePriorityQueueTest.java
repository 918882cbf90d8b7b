package io.github.timerqueue.hitime;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerQueue;
import io.github.timerqueue.TimerQueues;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The original's other use: a starvation-free priority queue. The clock is a counter of turns
 * rather than a time; an item of priority {@code p} (1 is the most urgent) is scheduled {@code p}
 * turns ahead of the counter. Each turn the counter moves on and whatever has come due is served.
 * An urgent item is served before a less urgent one queued at the same turn, but every item waits
 * at most its priority in turns, however much urgent work keeps arriving: the less urgent items age
 * into the front of the queue instead of starving.
 */
class HiTimePriorityQueueTest {

  private final TimerQueue<String> queue = TimerQueues.create("hitime");
  private final List<String> served = new ArrayList<>();

  private void submit(String item, int priority) {
    queue.schedule(queue.now() + priority, item);
  }

  /** One turn: the counter moves on by one and the items that came due are served. */
  private void turn() {
    queue.advance(queue.now() + 1, item -> served.add(item.payload()));
  }

  @Test
  void lowPriorityWorkIsServedWithinItsPriorityWhileUrgentWorkKeepsArriving() {
    submit("background", 10);
    for (int turn = 1; turn <= 12; turn++) {
      submit("urgent" + turn, 1);
      turn();
    }

    // A strict priority queue would serve "background" never: something urgent is always waiting.
    // Here it is served at turn 10, ahead of the urgent item queued after it for the same turn.
    assertThat(served).containsExactly(
        "urgent1", "urgent2", "urgent3", "urgent4", "urgent5", "urgent6", "urgent7", "urgent8",
        "urgent9", "background", "urgent10", "urgent11", "urgent12");
  }

  @Test
  void moreUrgentItemsQueuedTogetherAreServedFirstAndEqualPrioritiesFirstInFirstOut() {
    submit("b: priority 4", 4);
    submit("a: priority 1", 1);
    submit("c: priority 4, queued after b", 4);
    submit("d: priority 2", 2);

    while (queue.size() > 0) {
      turn();
    }

    assertThat(served).containsExactly(
        "a: priority 1", "d: priority 2", "b: priority 4", "c: priority 4, queued after b");
  }

  @Test
  void jumpingToTheNextPriorityWithTheWaitSkipsEmptyTurnsButKeepsTheOrder() {
    submit("x: priority 1000", 1000);
    submit("y: priority 37", 37);
    submit("z: priority 500", 500);

    int jumps = 0;
    while (queue.size() > 0) {
      queue.advance(queue.now() + queue.nextExpiryDelay(), item -> served.add(item.payload()));
      jumps++;
    }

    assertThat(served).containsExactly("y: priority 37", "z: priority 500", "x: priority 1000");
    assertThat(jumps).as("a few jumps per item, not one per turn").isLessThanOrEqualTo(3 * 11);
  }
}
