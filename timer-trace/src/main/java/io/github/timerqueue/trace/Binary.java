package io.github.timerqueue.trace;

/**
 * The constants of the binary form, version {@value #VERSION}, shared by its writer and reader
 * (see {@code docs/trace-format.md}).
 */
final class Binary {
  /** The first four bytes of a binary trace: a byte that is not text, then "TQT". */
  static final byte[] MAGIC = {(byte) 0x89, 'T', 'Q', 'T'};

  /** The version this library writes and the only one it reads. */
  static final int VERSION = 1;

  /** The most payload bytes a block may hold. */
  static final int MAX_BLOCK = 1 << 16;

  /** The most bytes one record takes: a tag and three ten-byte varints. */
  static final int MAX_RECORD = 31;

  /** How many recent delays a record may refer to instead of spelling its delay out. */
  static final int RECENT_DELAYS = 7;

  /** Op codes: the low three bits of a record's tag. */
  static final int ADVANCE = 0;
  static final int SCHEDULE = 1;
  static final int SCHEDULE_WITHIN = 2;
  static final int CANCEL = 3;
  static final int RESCHEDULE = 4;
  static final int CLEAR = 5;
  static final int DROPPED = 6;
  static final int END = 7;

  /** An advance's tick delta up to this value is held in the tag itself. */
  static final int INLINE_ADVANCE_MAX = 30;

  /** Schedule tags: the id is the highest id so far plus one. */
  static final int NEXT_ID = 1 << 3;

  /** Schedule and reschedule tags: bits 4 to 6 name a recent delay (1 to 7) or 0 for a varint. */
  static final int RECENT_SHIFT = 4;

  private Binary() {}

  /** Zigzag-encodes a signed value so that small magnitudes make small varints. */
  static long zigzag(long value) {
    return (value << 1) ^ (value >> 63);
  }

  /** Inverse of {@link #zigzag}. */
  static long unzigzag(long value) {
    return (value >>> 1) ^ -(value & 1);
  }
}
