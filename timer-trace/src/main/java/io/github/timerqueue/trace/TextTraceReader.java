package io.github.timerqueue.trace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads the text form. A record whose time is later than the clock moves the clock first: the
 * reader hands out an {@link TraceOp#ADVANCE} to that time, then the record, so traces exported
 * from systems that log only their own operations need no advance lines.
 */
final class TextTraceReader extends RecordCursor {
  /** How the header line starts. */
  static final String HEADER = "# timerqueue-trace";
  /** The op name of the end line. */
  static final String END = "end";

  private static final int MAX_LINE = 1024;
  private static final int MAX_TOKENS = 6;

  private final TraceHeader header;
  private final byte[] line = new byte[MAX_LINE];
  private final int[] tokenStart = new int[MAX_TOKENS];
  private final int[] tokenEnd = new int[MAX_TOKENS];
  private int lineLength;
  private int tokens;
  /** Bytes consumed from the stream so far. */
  private long consumed;
  private long lineOffset;
  private long records;
  private boolean ended;
  private TraceFormatException failure;

  /** The parsed line that waits behind the advance it implied, or null. */
  private TraceOp waiting;
  private long waitingTime;
  private long waitingOffset;

  TextTraceReader(InputStream in) throws IOException {
    super(in);
    if (!readLine()) {
      throw new TraceFormatException(0, "the file is empty: a trace starts with a header");
    }
    if (startsWith(HEADER)) {
      header = parseHeader();
      time = header.startTime();
    } else {
      // No header: the clock starts at the first record, in units that are not real time.
      TraceOp first = parseRecord();
      while (first == null && readLine()) {
        first = parseRecord();
      }
      header = new TraceHeader(0, 1, first == null ? 0 : waitingTime);
      time = header.startTime();
      waiting = first;
      if (first == null) {
        ended = true;
      }
    }
  }

  private TraceHeader parseHeader() throws TraceFormatException {
    tokenize();
    long unitNanos = 0;
    long resolution = 1;
    long start = 0;
    if (tokens < 3 || !token(2).equals(Integer.toString(Binary.VERSION))) {
      throw new TraceFormatException(lineOffset, "the header names format version "
          + (tokens < 3 ? "(none)" : "'" + token(2) + "'") + "; this reader reads version "
          + Binary.VERSION);
    }
    for (int t = 3; t < tokens; t++) {
      String pair = token(t);
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      long value = eq < 0 ? 0 : parseLong(pair.substring(eq + 1), key);
      switch (key) {
        case "unitNanos" -> unitNanos = value;
        case "resolution" -> resolution = value;
        case "start" -> start = value;
        default -> throw new TraceFormatException(lineOffset, "unknown header field '" + pair
            + "'; the header takes unitNanos=, resolution= and start=");
      }
    }
    try {
      return new TraceHeader(unitNanos, resolution, start);
    } catch (IllegalArgumentException e) {
      throw new TraceFormatException(lineOffset, "bad header: " + e.getMessage());
    }
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
    try {
      return read();
    } catch (TraceFormatException e) {
      failure = e;
      throw e;
    }
  }

  private TraceOp read() throws IOException {
    TraceOp op = waiting;
    waiting = null;
    while (op == null) {
      if (ended || !readLine()) {
        ended = true;
        return null;
      }
      op = parseRecord();
    }
    if (waitingTime - time < 0) {
      throw new TraceFormatException(waitingOffset, "time " + waitingTime
          + " is earlier than the trace's time " + time + "; records must be in time order");
    }
    recordOffset = waitingOffset;
    if (op != TraceOp.ADVANCE && waitingTime != time) {
      waiting = op; // the record waits for the advance its time implies
      time = waitingTime;
      return TraceOp.ADVANCE;
    }
    time = waitingTime;
    return op;
  }

  /** Parses the current line; returns null for a blank or comment line or the verified end. */
  private TraceOp parseRecord() throws IOException {
    if (isBlankOrComment()) {
      return null;
    }
    tokenize();
    if (tokens < 2) {
      throw new TraceFormatException(lineOffset, "a record is 'time op [values]', but the line"
          + " holds one value");
    }
    waitingOffset = lineOffset;
    waitingTime = parseLong(token(0), "time");
    String name = token(1);
    if (name.equals(END)) {
      values(name, 1, "records");
      long written = parseLong(token(2), "records");
      if (written != records) {
        throw new TraceFormatException(lineOffset, "the end line counts " + written
            + " records, but the trace holds " + records);
      }
      while (readLine()) {
        if (!isBlankOrComment()) {
          throw new TraceFormatException(lineOffset, "a record follows the end line");
        }
      }
      ended = true;
      return null;
    }
    TraceOp op = op(name);
    switch (op) {
      case ADVANCE, CLEAR -> values(name, 0, "");
      case SCHEDULE, RESCHEDULE -> {
        values(name, 2, "id delay");
        id = parseLong(token(2), "id");
        delay = Math.max(parseLong(token(3), "delay"), 0);
      }
      case SCHEDULE_WITHIN -> {
        values(name, 3, "id delay range");
        id = parseLong(token(2), "id");
        delay = Math.max(parseLong(token(3), "delay"), 0);
        range = parseLong(token(4), "range");
        if (range < 0) {
          throw new TraceFormatException(lineOffset, "range " + range + " is negative");
        }
      }
      case CANCEL -> {
        values(name, 1, "id");
        id = parseLong(token(2), "id");
      }
      case DROPPED -> {
        values(name, 1, "count");
        count = parseLong(token(2), "count");
        if (count < 1) {
          throw new TraceFormatException(lineOffset, "dropped count " + count + " is not positive");
        }
      }
      default -> throw new AssertionError(op);
    }
    records++;
    return op;
  }

  private TraceOp op(String name) throws TraceFormatException {
    for (TraceOp op : TraceOp.values()) {
      if (op.textName().equals(name)) {
        return op;
      }
    }
    throw new TraceFormatException(lineOffset + tokenStart[1], "unknown op '" + name
        + "'; ops are advance, schedule, within, cancel, reschedule, clear, dropped and end");
  }

  private void values(String name, int wanted, String names) throws TraceFormatException {
    if (tokens - 2 != wanted) {
      throw new TraceFormatException(lineOffset, "'" + name + "' takes " + wanted
          + " values after the time" + (wanted == 0 ? "" : " (" + names + ")") + ", but the line"
          + " has " + (tokens - 2));
    }
  }

  private long parseLong(String text, String what) throws TraceFormatException {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new TraceFormatException(lineOffset, what + " '" + text + "' is not a whole number");
    }
  }

  private String token(int t) {
    return new String(line, tokenStart[t], tokenEnd[t] - tokenStart[t], StandardCharsets.US_ASCII);
  }

  private boolean startsWith(String prefix) {
    if (lineLength < prefix.length()) {
      return false;
    }
    for (int i = 0; i < prefix.length(); i++) {
      if (line[i] != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private boolean isBlankOrComment() {
    for (int i = 0; i < lineLength; i++) {
      if (line[i] != ' ' && line[i] != '\t') {
        return line[i] == '#';
      }
    }
    return true;
  }

  private void tokenize() throws TraceFormatException {
    tokens = 0;
    int i = 0;
    while (i < lineLength) {
      while (i < lineLength && (line[i] == ' ' || line[i] == '\t')) {
        i++;
      }
      if (i == lineLength) {
        break;
      }
      if (tokens == MAX_TOKENS) {
        throw new TraceFormatException(lineOffset + i, "too many values on the line");
      }
      tokenStart[tokens] = i;
      while (i < lineLength && line[i] != ' ' && line[i] != '\t') {
        i++;
      }
      tokenEnd[tokens++] = i;
    }
  }

  /** Reads the next line into {@link #line}; false at the end of the stream. */
  private boolean readLine() throws IOException {
    lineOffset = consumed;
    lineLength = 0;
    while (true) {
      int b = in.read();
      if (b < 0) {
        if (lineLength == 0) {
          return false;
        }
        throw new TraceFormatException(lineOffset, "truncated: the last line does not end with a"
            + " newline (the file was cut)");
      }
      consumed++;
      if (b == '\n') {
        if (lineLength > 0 && line[lineLength - 1] == '\r') {
          lineLength--;
        }
        return true;
      }
      if (lineLength == MAX_LINE) {
        throw new TraceFormatException(lineOffset, "a line is longer than " + MAX_LINE + " bytes");
      }
      line[lineLength++] = (byte) b;
    }
  }
}
