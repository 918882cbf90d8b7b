package io.github.timerqueue.trace;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** One record as a value, for comparing what was written with what was read. */
record Op(TraceOp op, long time, long id, long delay, long range, long count) {

  static Op read(TraceReader reader, TraceOp op) {
    return switch (op) {
      case ADVANCE, CLEAR -> new Op(op, reader.time(), 0, 0, 0, 0);
      case SCHEDULE, RESCHEDULE -> new Op(op, reader.time(), reader.id(), reader.delay(), 0, 0);
      case SCHEDULE_WITHIN ->
          new Op(op, reader.time(), reader.id(), reader.delay(), reader.range(), 0);
      case CANCEL -> new Op(op, reader.time(), reader.id(), 0, 0, 0);
      case DROPPED -> new Op(op, reader.time(), 0, 0, 0, reader.count());
    };
  }

  /** Reads the whole trace. */
  static List<Op> readAll(TraceReader reader) throws IOException {
    List<Op> ops = new ArrayList<>();
    for (TraceOp op; (op = reader.next()) != null; ) {
      ops.add(read(reader, op));
    }
    return ops;
  }

  void writeTo(TraceWriter writer) throws IOException {
    switch (op) {
      case ADVANCE -> writer.advance(time);
      case SCHEDULE -> writer.schedule(id, delay);
      case SCHEDULE_WITHIN -> writer.scheduleWithin(id, delay, range);
      case CANCEL -> writer.cancel(id);
      case RESCHEDULE -> writer.reschedule(id, delay);
      case CLEAR -> writer.clear();
      case DROPPED -> writer.dropped(count);
    }
  }

  /**
   * A random trace on the header's tick grid (so that the binary form keeps it exactly): new
   * timers mostly numbered in order, touched and cancelled at random ages, a few delays repeating,
   * advances small and large, ids anywhere in the long range now and then.
   */
  static List<Op> random(TraceHeader header, int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long res = header.resolution();
    long[] fixed = {0, 1, 7, 100, 30_000, 1L << 40};
    List<Op> ops = new ArrayList<>();
    long time = header.startTime();
    long nextId = 0;
    for (int i = 0; i < n; i++) {
      int kind = random.nextInt(100);
      long delay = (random.nextBoolean()
          ? fixed[random.nextInt(fixed.length)]
          : random.nextLong(1L << random.nextInt(1, 41))) * res;
      long id = nextId == 0 || random.nextInt(10) == 0
          ? random.nextLong()
          : nextId - 1 - random.nextLong(1000);
      if (kind < 20) {
        time += (random.nextBoolean() ? random.nextLong(31) : random.nextLong(1L << 30)) * res;
        ops.add(new Op(TraceOp.ADVANCE, time, 0, 0, 0, 0));
      } else if (kind < 50) {
        long newId = random.nextInt(20) == 0 ? random.nextLong() : nextId;
        nextId = newId + 1;
        ops.add(new Op(TraceOp.SCHEDULE, time, newId, delay, 0, 0));
      } else if (kind < 55) {
        ops.add(new Op(TraceOp.SCHEDULE_WITHIN, time, nextId++, delay,
            random.nextLong(1000) * res, 0));
      } else if (kind < 75) {
        ops.add(new Op(TraceOp.CANCEL, time, id, 0, 0, 0));
      } else if (kind < 97) {
        ops.add(new Op(TraceOp.RESCHEDULE, time, id, delay, 0, 0));
      } else if (kind < 98) {
        ops.add(new Op(TraceOp.CLEAR, time, 0, 0, 0, 0));
      } else {
        ops.add(new Op(TraceOp.DROPPED, time, 0, 0, 0, 1 + random.nextLong(1L << 20)));
      }
    }
    return ops;
  }
}
