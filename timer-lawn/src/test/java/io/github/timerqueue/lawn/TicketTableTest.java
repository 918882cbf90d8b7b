package io.github.timerqueue.lawn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.timerqueue.TimerConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TicketTableTest {
  private final LawnTimerQueue<String> owner = new LawnTimerQueue<>(TimerConfig.defaults());

  @Test
  void aWindowHasMoreNumbersThanTheSlotsAndAtLeastABlock() {
    assertThat(TicketTable.orderFor(1)).isZero();
    assertThat(TicketTable.orderFor(TicketTable.BLOCK - 1)).isZero();
    assertThat(TicketTable.orderFor(TicketTable.BLOCK)).isEqualTo(1);
    assertThat(TicketTable.orderFor((1 << 29) - 1)).isEqualTo(29 - TicketTable.BLOCK_SHIFT);
    assertThatThrownBy(() -> TicketTable.orderFor(1 << 29))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("536870911");
  }

  @Test
  void eachNumberOfAWindowNamesItsRingUntilItIsGivenBackAndTakenAgain() {
    TicketTable<String> table = new TicketTable<>();
    TimerRing<String> small = new TimerRing<>(owner, true);
    TimerRing<String> large = new TimerRing<>(owner, true);

    int first = table.take(0, small);
    int second = table.take(2, large);

    assertThat(second).isEqualTo(first + TicketTable.BLOCK);
    for (int number = first; number < first + TicketTable.BLOCK; number++) {
      assertThat(table.ringOf(number)).isSameAs(small);
    }
    for (int number = second; number < second + 4 * TicketTable.BLOCK; number++) {
      assertThat(table.ringOf(number)).isSameAs(large);
    }

    table.give(second, 4 * TicketTable.BLOCK);
    assertThat(table.ringOf(second + 5)).isNull();
    assertThat(table.take(2, small)).as("a freed window of its size").isEqualTo(second);
    assertThat(table.ringOf(second + 4 * TicketTable.BLOCK - 1)).isSameAs(small);
    assertThat(table.numbersCut()).isEqualTo(5 * TicketTable.BLOCK);
  }

  @Test
  void onceEveryNumberIsCutALargerFreeWindowIsSplitAndThenNoneIsLeft() {
    TicketTable<String> table = new TicketTable<>();
    TimerRing<String> ring = new TimerRing<>(owner, true);
    int largest = 29 - TicketTable.BLOCK_SHIFT;
    List<Integer> windows = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      windows.add(table.take(largest, ring));
    }
    assertThat(table.numbersCut()).isEqualTo(1L << 31);
    table.give(windows.get(1), 1 << 29);

    int split = table.take(0, ring);
    assertThat(split).isEqualTo(windows.get(1));
    // The rest of the split window: one free window of each order below the largest.
    for (int order = 0; order < largest; order++) {
      assertThat(table.take(order, ring)).isEqualTo(windows.get(1) + (TicketTable.BLOCK << order));
    }
    assertThatThrownBy(() -> table.take(0, ring)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("2^31");
  }
}
