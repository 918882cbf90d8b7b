package io.github.timerqueue.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Everything a comparison produced, ready to print or draw: the measurements, the rows of the
 * table (one per workload, TTL count and population, whether or not its runs succeeded), the
 * contenders in column order, and the memory per pending timer.
 *
 * @param about lines that say what was run, where and how (JDK, cores, JMH settings)
 * @param memoryTimers the population at which memory per timer was measured
 * @param bytesPerTimer memory per pending timer by contender; empty if not measured
 */
record Results(
    List<String> about,
    List<String> contenders,
    List<Row> rows,
    List<Measurement> measurements,
    int memoryTimers,
    Map<String, Double> bytesPerTimer) {

  /** A row of the table: a workload at one population (and TTL count). */
  record Row(Workload workload, int ttls, int pending) {
    static final Comparator<Row> ORDER = Comparator.comparing(Row::workload)
        .thenComparingInt(Row::ttls)
        .thenComparingInt(Row::pending);

    String label() {
      if (ttls == 0) {
        return workload.label();
      }
      return workload.label() + " (" + ttls + (ttls == 1 ? " TTL)" : " TTLs)");
    }

    boolean holds(Measurement m) {
      return m.workload() == workload && m.ttls() == ttls && m.pending() == pending;
    }
  }

  /** The rows that {@code measurements} fill, in table order. */
  static List<Row> rowsOf(List<Measurement> measurements) {
    TreeSet<Row> rows = new TreeSet<>(Row.ORDER);
    for (Measurement m : measurements) {
      rows.add(new Row(m.workload(), m.ttls(), m.pending()));
    }
    return new ArrayList<>(rows);
  }

  /** The measurement of {@code contender} in {@code row}, if it ran and succeeded. */
  Optional<Measurement> find(Row row, String contender) {
    for (Measurement m : measurements) {
      if (row.holds(m) && m.contender().equals(contender)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /**
   * The notes the table refers to, numbered from 1 in the order of the workloads: what each
   * workload means for Agrona, where that needs saying.
   */
  Map<Workload, Integer> agronaNotes() {
    Map<Workload, Integer> notes = new LinkedHashMap<>();
    if (contenders.contains(Contenders.AGRONA)) {
      for (Row row : rows) {
        if (row.workload().agronaNote() != null && !notes.containsKey(row.workload())) {
          notes.put(row.workload(), notes.size() + 1);
        }
      }
    }
    return notes;
  }
}
