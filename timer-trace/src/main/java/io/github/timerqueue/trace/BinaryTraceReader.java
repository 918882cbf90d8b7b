package io.github.timerqueue.trace;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;

/** Reads the binary form, checking each block's CRC-32 before decoding any of its records. */
final class BinaryTraceReader extends RecordCursor {
  private final TraceHeader header;
  private final byte[] block = new byte[Binary.MAX_BLOCK];
  private final CRC32 crc = new CRC32();
  private final byte[] checksum = new byte[4];
  private final RecentDelays recentDelays = new RecentDelays();
  /** Bytes consumed from the stream so far. */
  private long consumed;
  /** Offset in the file of block[0]. */
  private long blockOffset;
  private int blockLength;
  private int position;
  private long ticks;
  private long maxId = -1;
  private long records;
  private long droppedTotal;
  private boolean ended;
  private TraceFormatException failure;

  BinaryTraceReader(InputStream in) throws IOException {
    super(in);
    this.header = readHeader();
    this.time = header.startTime();
  }

  private TraceHeader readHeader() throws IOException {
    int length = readFully(block, 0, 5);
    for (int i = 0; i < Binary.MAGIC.length; i++) {
      if (i >= length || block[i] != Binary.MAGIC[i]) {
        throw new TraceFormatException(0, "not a binary timer trace: it does not start with the "
            + "bytes 89 54 51 54 (\\x89TQT)");
      }
    }
    if (length < 5) {
      throw new TraceFormatException(length, "truncated in the header: the file ends there");
    }
    int version = block[4] & 0xFF;
    if (version != Binary.VERSION) {
      throw new TraceFormatException(4, "trace format version " + version + " is not supported;"
          + " this reader reads version " + Binary.VERSION
          + (version > Binary.VERSION ? " (the trace was written by a newer timer-trace)" : ""));
    }
    int end = 5;
    long[] varints = new long[2];
    for (int v = 0; v < 2; v++) {
      long value = 0;
      for (int shift = 0; ; shift += 7) {
        if (shift > 63) {
          throw new TraceFormatException(end, "header varint longer than 10 bytes");
        }
        end = readHeaderBytes(end, 1);
        int b = block[end - 1] & 0xFF;
        value |= (long) (b & 0x7F) << shift;
        if (b < 0x80) {
          break;
        }
      }
      varints[v] = value;
    }
    end = readHeaderBytes(end, 8);
    long start = 0;
    for (int i = end - 8; i < end; i++) {
      start = start << 8 | (block[i] & 0xFF);
    }
    crc.reset();
    crc.update(block, 0, end);
    int expected = (int) crc.getValue();
    int checksumAt = end;
    end = readHeaderBytes(end, 4);
    if (readInt(block, checksumAt) != expected) {
      throw new TraceFormatException(checksumAt, "the header fails its CRC-32 check");
    }
    if (varints[0] < 0 || varints[1] < 1) {
      throw new TraceFormatException(5, "the header's unit (" + varints[0] + " ns) or resolution ("
          + varints[1] + ") is out of range; the resolution must be at least 1");
    }
    return new TraceHeader(varints[0], varints[1], start);
  }

  private int readHeaderBytes(int at, int n) throws IOException {
    int read = readFully(block, at, n);
    if (read < n) {
      throw new TraceFormatException(at + read, "truncated in the header: the file ends there");
    }
    return at + n;
  }

  /** Reads up to {@code n} bytes, fewer only at the end of the stream; counts them as consumed. */
  private int readFully(byte[] into, int at, int n) throws IOException {
    int read = in.readNBytes(into, at, n);
    consumed += read;
    return read;
  }

  private static int readInt(byte[] bytes, int at) {
    return (bytes[at] & 0xFF) << 24 | (bytes[at + 1] & 0xFF) << 16 | (bytes[at + 2] & 0xFF) << 8
        | (bytes[at + 3] & 0xFF);
  }

  @Override
  public TraceHeader header() {
    return header;
  }

  @Override
  public TraceOp next() throws IOException {
    if (failure != null) {
      throw failure;
    }
    if (ended) {
      return null;
    }
    try {
      return decode();
    } catch (TraceFormatException e) {
      failure = e;
      throw e;
    }
  }

  private TraceOp decode() throws IOException {
    if (position == blockLength) {
      loadBlock();
    }
    recordOffset = blockOffset + position;
    int tag = block[position++] & 0xFF;
    int op = tag & 7;
    switch (op) {
      case Binary.ADVANCE: {
        long delta = tag >>> 3;
        if (delta > Binary.INLINE_ADVANCE_MAX) {
          delta = varint() + Binary.INLINE_ADVANCE_MAX + 1;
        }
        ticks += delta;
        time = header.timeOf(ticks);
        records++;
        return TraceOp.ADVANCE;
      }
      case Binary.SCHEDULE:
      case Binary.SCHEDULE_WITHIN: {
        reserved(tag, 0x80);
        id = (tag & Binary.NEXT_ID) != 0 ? maxId + 1 : maxId + 1 + Binary.unzigzag(varint());
        if (id - maxId > 0) {
          maxId = id;
        }
        delay = delayTicks(tag) * header.resolution();
        records++;
        if (op == Binary.SCHEDULE) {
          return TraceOp.SCHEDULE;
        }
        range = varint() * header.resolution();
        return TraceOp.SCHEDULE_WITHIN;
      }
      case Binary.CANCEL:
        reserved(tag, 0xF8);
        id = maxId - Binary.unzigzag(varint());
        records++;
        return TraceOp.CANCEL;
      case Binary.RESCHEDULE:
        reserved(tag, 0x88);
        id = maxId - Binary.unzigzag(varint());
        delay = delayTicks(tag) * header.resolution();
        records++;
        return TraceOp.RESCHEDULE;
      case Binary.CLEAR:
        reserved(tag, 0xF8);
        records++;
        return TraceOp.CLEAR;
      case Binary.DROPPED:
        reserved(tag, 0xF8);
        count = varint();
        if (count < 1) {
          throw corrupt("a dropped record counts " + count + " operations; it must be at least 1");
        }
        droppedTotal += count;
        records++;
        return TraceOp.DROPPED;
      default:
        reserved(tag, 0xF8);
        end();
        return null;
    }
  }

  private void end() throws IOException {
    long writtenRecords = varint();
    long writtenDropped = varint();
    if (writtenRecords != records || writtenDropped != droppedTotal) {
      throw corrupt("the end record counts " + writtenRecords + " records and " + writtenDropped
          + " dropped operations, but the trace holds " + records + " and " + droppedTotal);
    }
    if (position != blockLength) {
      throw new TraceFormatException(blockOffset + position,
          "data follows the end record in its block");
    }
    if (in.read() >= 0) {
      throw new TraceFormatException(consumed, "data follows the end record");
    }
    ended = true;
  }

  private long delayTicks(int tag) throws TraceFormatException {
    int recent = (tag >>> Binary.RECENT_SHIFT) & 7;
    long ticks;
    if (recent == 0) {
      ticks = varint();
    } else {
      ticks = recentDelays.at(recent);
      if (ticks < 0) {
        throw corrupt("the record refers to recent delay " + recent + ", which was never written");
      }
    }
    recentDelays.use(ticks);
    return ticks;
  }

  private void reserved(int tag, int mask) throws TraceFormatException {
    if ((tag & mask) != 0) {
      throw corrupt(String.format("tag 0x%02x sets bits that op %d leaves reserved (mask 0x%02x)",
          tag, tag & 7, mask));
    }
  }

  private long varint() throws TraceFormatException {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (position == blockLength) {
        throw corrupt("the record runs past the end of its block");
      }
      int b = block[position++] & 0xFF;
      value |= (long) (b & 0x7F) << shift;
      if (b < 0x80) {
        return value;
      }
    }
    throw corrupt("a varint is longer than 10 bytes");
  }

  private TraceFormatException corrupt(String problem) {
    return new TraceFormatException(recordOffset, "corrupt record: " + problem);
  }

  private void loadBlock() throws IOException {
    long at = consumed;
    int length = 0;
    for (int shift = 0; ; shift += 7) {
      int b = in.read();
      if (b < 0) {
        if (shift == 0) {
          throw new TraceFormatException(at, "truncated: the file ends after " + records
              + " records without the end record (the recording was not closed, or the file was"
              + " cut)");
        }
        throw new TraceFormatException(consumed, "truncated in a block's length");
      }
      consumed++;
      if (shift > 14) {
        throw new TraceFormatException(at, "corrupt block length: more than 3 bytes");
      }
      length |= (b & 0x7F) << shift;
      if (b < 0x80) {
        break;
      }
    }
    if (length < 1 || length > Binary.MAX_BLOCK) {
      throw new TraceFormatException(at, "corrupt block length " + length
          + "; a block holds 1 to " + Binary.MAX_BLOCK + " bytes");
    }
    blockOffset = consumed;
    int read = readFully(block, 0, length);
    if (read < length) {
      throw new TraceFormatException(consumed, "truncated: the block at byte offset " + at
          + " holds " + length + " bytes but the file ends after " + read + " of them");
    }
    int checksumRead = readFully(checksum, 0, 4);
    if (checksumRead < 4) {
      throw new TraceFormatException(consumed,
          "truncated: the file ends inside the CRC-32 of the block at byte offset " + at);
    }
    crc.reset();
    crc.update(block, 0, length);
    if (readInt(checksum, 0) != (int) crc.getValue()) {
      throw new TraceFormatException(at, "corrupt block: the " + length + " bytes of the block at"
          + " byte offset " + at + " fail their CRC-32 check");
    }
    blockLength = length;
    position = 0;
  }
}
