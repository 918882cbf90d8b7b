package io.github.timerqueue.lawn;

import static io.github.timerqueue.lawn.LawnTimerQueueTest.lawn;
import static io.github.timerqueue.lawn.LawnTimerQueueTest.queueOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a timer holds: no reference that moving it between rings could rewrite (a reference store
 * in a tenured timer pays G1's post-write barrier), and still its ring through its ticket and its
 * owner for good.
 */
class LawnTimerTest {

  @Test
  void aTimerHasNoReferenceThatAMoveCouldStore() {
    List<String> references = new ArrayList<>();
    for (Class<?> type = LawnTimer.class; type != Object.class; type = type.getSuperclass()) {
      for (Field field : type.getDeclaredFields()) {
        int modifiers = field.getModifiers();
        if (!Modifier.isStatic(modifiers) && !field.getType().isPrimitive()) {
          assertThat(Modifier.isFinal(modifiers)).as(field + " is final").isTrue();
          references.add(field.getName());
        }
      }
    }
    assertThat(references).containsExactlyInAnyOrder("owner", "payload");
  }

  @Test
  void aTimerThatMovesBetweenRingsIsFoundInEachByItsTicketAndStaysItsOwners() {
    LawnTimerQueue<String> lawn = lawn(0, 1);
    LawnTimer<String> timer = (LawnTimer<String>) lawn.schedule(5, "mover");
    // Keep the queues it leaves from emptying: TTL 5's would be the spare that TTL 10 takes, and
    // TTL 10's leaving would make room in the map.
    lawn.schedule(5, "stays");
    lawn.schedule(10, "stays too");
    TtlQueue<?> five = queueOf(timer);
    assertThat(five.ttl).isEqualTo(5);

    lawn.reschedule(timer, 10);
    assertThat(queueOf(timer).ttl).as("another TTL's queue").isEqualTo(10);
    assertThat(queueOf(timer)).isNotSameAs(five);
    LawnInvariants.check(lawn);

    // Fill the map, so that a TTL without a queue joins a shared one.
    for (int ttl = 1_000; lawn.queuesByTtl.size() < LawnTimerQueue.TTL_QUEUES; ttl++) {
      lawn.schedule(ttl, "ttl " + ttl);
    }
    lawn.reschedule(timer, 5_000);
    assertThat(queueOf(timer).ttl).as("a shared queue").isEqualTo(TtlQueue.SHARED);
    LawnInvariants.check(lawn);

    lawn.reschedule(timer, 10);
    List<TimerRing<?>> armedDueIn = new ArrayList<>();
    lawn.advance(10, fired -> {
      if (fired == timer) {
        lawn.reschedule(timer, 0);
        armedDueIn.add(lawn.ringOf(timer));
      }
    });
    assertThat(armedDueIn).as("set apart while the advance runs").containsExactly(lawn.armedDue);
    assertThat(queueOf(timer).ttl).as("then the queue of TTL 0").isZero();
    LawnInvariants.check(lawn);

    lawn.advance(11, fired -> { });
    assertThat(timer.isPending()).isFalse();
    assertThat(timer.owner).isSameAs(lawn);
    LawnInvariants.check(lawn);
  }

  @Test
  void aHandleOfAnotherLawnIsRefusedWhateverItsTicketPendingOrNotAndForGood() {
    LawnTimerQueue<String> lawn = lawn(0, 1);
    LawnTimerQueue<String> other = lawn(0, 1);
    // The same operations in both lawns, so that the handles' tickets have the same numbers.
    TimerHandle<String> mine = lawn.schedule(5, "mine");
    TimerHandle<String> theirs = other.schedule(5, "theirs");
    assertThat(((LawnTimer<String>) mine).ticket).isEqualTo(((LawnTimer<String>) theirs).ticket);

    assertThatThrownBy(() -> other.cancel(mine)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> other.reschedule(mine, 7)).isInstanceOf(IllegalArgumentException.class);
    assertThat(queueOf(theirs).ttl).isEqualTo(5);
    assertThat(lawn.cancel(mine)).isTrue();
    assertThatThrownBy(() -> other.cancel(mine)).isInstanceOf(IllegalArgumentException.class);

    // Every queue the handle was in dropped: it is still its lawn's, and no other's.
    lawn.clear();
    for (int ttl = 1; ttl <= 2 * LawnTimerQueue.SPARE_QUEUES; ttl++) {
      lawn.schedule(ttl, "t" + ttl);
    }
    lawn.clear();
    assertThatThrownBy(() -> other.reschedule(mine, 7)).isInstanceOf(IllegalArgumentException.class);
    assertThat(lawn.reschedule(mine, 7)).isFalse();
    assertThat(mine.isPending()).isTrue();
    LawnInvariants.check(lawn);
    LawnInvariants.check(other);
  }
}
