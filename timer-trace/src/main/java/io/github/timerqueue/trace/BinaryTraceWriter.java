package io.github.timerqueue.trace;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.zip.CRC32;

/** Writes the binary form: header, then blocks of records each closed by a CRC-32. */
final class BinaryTraceWriter extends RecordSink {
  /*
   * A record never spans blocks: a block is written out once fewer than MAX_RECORD bytes are left,
   * so the reader can check a block's CRC before it decodes anything in it. The encoder state (the
   * tick of the clock, the highest id, the recent delays) is what the reader rebuilds record by
   * record; any change to it is a new version of the format.
   */
  private final OutputStream out;
  private final byte[] block = new byte[Binary.MAX_BLOCK];
  /** A block's length before it and its CRC after it. */
  private final byte[] frame = new byte[5];
  private final CRC32 crc = new CRC32();
  private final RecentDelays recentDelays = new RecentDelays();
  private int position;
  private long ticks;
  private long maxId = -1;
  private long droppedTotal;
  private boolean closed;

  BinaryTraceWriter(OutputStream out, TraceHeader header) throws IOException {
    super(header);
    this.out = Objects.requireNonNull(out, "out");
    position = 0;
    block[position++] = Binary.MAGIC[0];
    block[position++] = Binary.MAGIC[1];
    block[position++] = Binary.MAGIC[2];
    block[position++] = Binary.MAGIC[3];
    block[position++] = (byte) Binary.VERSION;
    putVarint(header.unitNanos());
    putVarint(header.resolution());
    putLong(header.startTime());
    crc.reset();
    crc.update(block, 0, position);
    putInt((int) crc.getValue());
    out.write(block, 0, position);
    position = 0;
  }

  @Override
  public void advance(long now) throws IOException {
    checkAdvance(now);
    long target = header.ticksAt(now);
    long delta = target - ticks;
    if (delta < 0) {
      throw new IllegalArgumentException("advance to " + now + " is more than 2^64 - 1 units after"
          + " the trace's start " + header.startTime() + ", farther than a trace can count");
    }
    time = now;
    ticks = target;
    room();
    if (delta <= Binary.INLINE_ADVANCE_MAX) {
      block[position++] = (byte) (Binary.ADVANCE | delta << 3);
    } else {
      block[position++] = (byte) (Binary.ADVANCE | (Binary.INLINE_ADVANCE_MAX + 1) << 3);
      putVarint(delta - Binary.INLINE_ADVANCE_MAX - 1);
    }
    records++;
  }

  @Override
  public void schedule(long id, long delay) throws IOException {
    newTimer(Binary.SCHEDULE, id, delay);
    records++;
  }

  @Override
  public void scheduleWithin(long id, long delay, long range) throws IOException {
    checkRange(range);
    newTimer(Binary.SCHEDULE_WITHIN, id, delay);
    putVarint(header.delayTicks(range));
    records++;
  }

  private void newTimer(int op, long id, long delay) throws IOException {
    room();
    int tagAt = position++;
    int tag = op;
    if (id == maxId + 1) {
      tag |= Binary.NEXT_ID;
    } else {
      putVarint(Binary.zigzag(id - (maxId + 1)));
    }
    if (id - maxId > 0) {
      maxId = id;
    }
    tag |= delay(header.delayTicks(delay));
    block[tagAt] = (byte) tag;
  }

  @Override
  public void cancel(long id) throws IOException {
    room();
    block[position++] = Binary.CANCEL;
    putVarint(Binary.zigzag(maxId - id));
    records++;
  }

  @Override
  public void reschedule(long id, long delay) throws IOException {
    room();
    int tagAt = position++;
    putVarint(Binary.zigzag(maxId - id));
    block[tagAt] = (byte) (Binary.RESCHEDULE | delay(header.delayTicks(delay)));
    records++;
  }

  /** Writes the delay, or returns the tag bits of the recent delay that it equals. */
  private int delay(long delayTicks) {
    int recent = recentDelays.find(delayTicks);
    recentDelays.use(delayTicks);
    if (recent == 0) {
      putVarint(delayTicks);
    }
    return recent << Binary.RECENT_SHIFT;
  }

  @Override
  public void clear() throws IOException {
    room();
    block[position++] = Binary.CLEAR;
    records++;
  }

  @Override
  public void dropped(long count) throws IOException {
    checkDropped(count);
    room();
    block[position++] = Binary.DROPPED;
    putVarint(count);
    droppedTotal += count;
    records++;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    try (out) {
      room();
      block[position++] = Binary.END;
      putVarint(records);
      putVarint(droppedTotal);
      flushBlock();
      out.flush();
    } finally {
      closed = true;
    }
  }

  /** Makes room for one record: writes the block out if it could not hold one more. */
  private void room() throws IOException {
    if (closed) {
      throw new IllegalStateException("the trace writer is closed");
    }
    if (position > Binary.MAX_BLOCK - Binary.MAX_RECORD) {
      flushBlock();
    }
  }

  private void flushBlock() throws IOException {
    if (position == 0) {
      return;
    }
    crc.reset();
    crc.update(block, 0, position);
    int n = 0;
    for (int v = position; ; v >>>= 7) {
      if (v < 0x80) {
        frame[n++] = (byte) v;
        break;
      }
      frame[n++] = (byte) (v | 0x80);
    }
    out.write(frame, 0, n);
    out.write(block, 0, position);
    int value = (int) crc.getValue();
    for (int i = 0; i < 4; i++) {
      frame[i] = (byte) (value >>> (24 - 8 * i));
    }
    out.write(frame, 0, 4);
    position = 0;
  }

  private void putVarint(long value) {
    while ((value & ~0x7FL) != 0) {
      block[position++] = (byte) (value | 0x80);
      value >>>= 7;
    }
    block[position++] = (byte) value;
  }

  private void putLong(long value) {
    for (int shift = 56; shift >= 0; shift -= 8) {
      block[position++] = (byte) (value >>> shift);
    }
  }

  private void putInt(int value) {
    for (int shift = 24; shift >= 0; shift -= 8) {
      block[position++] = (byte) (value >>> shift);
    }
  }
}
