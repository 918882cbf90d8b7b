package io.github.timerqueue.lawn;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.timerqueue.TimerConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimerListTest {
  private final LawnTimerQueue<String> owner = new LawnTimerQueue<>(TimerConfig.defaults());

  private LawnTimer<String> timer(String payload) {
    return new LawnTimer<>(owner, payload);
  }

  /**
   * The payloads head to tail, after checking the links both ways, that they close on the list's
   * sentinel, and the count.
   */
  private static List<String> contents(TimerList<String> list) {
    List<String> payloads = new ArrayList<>();
    TimerLink<String> previous = list;
    for (TimerLink<String> link = list.next; link != list; link = link.next) {
      assertThat(link).isInstanceOf(LawnTimer.class);
      LawnTimer<String> timer = (LawnTimer<String>) link;
      assertThat(timer.previous).isSameAs(previous);
      assertThat(timer.list).isSameAs(list);
      payloads.add(timer.payload);
      previous = timer;
    }
    assertThat(list.previous).isSameAs(previous);
    assertThat(list.countUpTo(Integer.MAX_VALUE)).isEqualTo(payloads.size());
    assertThat(list.isEmpty()).isEqualTo(payloads.isEmpty());
    if (!payloads.isEmpty()) {
      assertThat(list.first().payload).isEqualTo(payloads.get(0));
      assertThat(list.last().payload).isEqualTo(payloads.get(payloads.size() - 1));
    }
    return payloads;
  }

  @Test
  void appendKeepsArrivalOrderAndRemoveUnlinksFromAnywhere() {
    TimerList<String> list = new TimerList<>();
    LawnTimer<String> a = timer("a");
    LawnTimer<String> b = timer("b");
    LawnTimer<String> c = timer("c");
    LawnTimer<String> d = timer("d");
    list.append(a);
    list.append(b);
    list.append(c);
    list.append(d);
    assertThat(contents(list)).containsExactly("a", "b", "c", "d");

    list.remove(b);
    assertThat(contents(list)).containsExactly("a", "c", "d");
    list.remove(a);
    assertThat(contents(list)).containsExactly("c", "d");
    list.remove(d);
    assertThat(contents(list)).containsExactly("c");
    list.remove(c);
    assertThat(contents(list)).isEmpty();
    assertThat(list.isEmpty()).isTrue();
    for (LawnTimer<String> timer : List.of(a, b, c, d)) {
      assertThat(timer.isPending()).isFalse();
      assertThat(timer.previous).isNull();
      assertThat(timer.next).isNull();
    }
  }

  @Test
  void moveFirstToSplicesTheHeadsOntoTheTailOfAnotherList() {
    TimerList<String> source = new TimerList<>();
    TimerList<String> target = new TimerList<>();
    LawnTimer<String> b = timer("b");
    target.append(timer("x"));
    source.append(timer("a"));
    source.append(b);
    source.append(timer("c"));

    source.moveFirstTo(target, b);

    assertThat(contents(source)).containsExactly("c");
    assertThat(contents(target)).containsExactly("x", "a", "b");
  }

  @Test
  void moveFirstToCanTakeTheWholeListIntoAnEmptyOne() {
    TimerList<String> source = new TimerList<>();
    TimerList<String> target = new TimerList<>();
    LawnTimer<String> only = timer("only");
    source.append(only);

    source.moveFirstTo(target, only);

    assertThat(contents(source)).isEmpty();
    assertThat(source.isEmpty()).isTrue();
    assertThat(contents(target)).containsExactly("only");
  }

  @Test
  void removeAllLeavesNoTimerPending() {
    TimerList<String> list = new TimerList<>();
    List<LawnTimer<String>> timers = List.of(timer("a"), timer("b"), timer("c"));
    timers.forEach(list::append);

    list.removeAll();

    assertThat(contents(list)).isEmpty();
    assertThat(timers).noneMatch(LawnTimer::isPending);
  }
}
