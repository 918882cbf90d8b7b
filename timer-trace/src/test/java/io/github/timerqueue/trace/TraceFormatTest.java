package io.github.timerqueue.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TraceFormatTest {

  private static final TraceHeader MILLIS = TraceHeader.of(TimeUnit.NANOSECONDS, 1_000_000, 0);

  static byte[] binary(TraceHeader header, List<Op> ops) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TraceWriter writer = TraceWriter.binary(bytes, header)) {
      for (Op op : ops) {
        op.writeTo(writer);
      }
    }
    return bytes.toByteArray();
  }

  static byte[] text(TraceHeader header, List<Op> ops) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TraceWriter writer = TraceWriter.text(bytes, header)) {
      for (Op op : ops) {
        op.writeTo(writer);
      }
    }
    return bytes.toByteArray();
  }

  static List<Op> read(byte[] trace) throws IOException {
    try (TraceReader reader = TraceReader.open(new ByteArrayInputStream(trace))) {
      return Op.readAll(reader);
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {0, Long.MIN_VALUE, Long.MAX_VALUE - 5_000_000_000L, -123_456_789})
  void binaryAndTextRoundTripEveryRecordExactlyFromAnyStart(long start) throws IOException {
    for (long resolution : new long[] {1, 1000, 1_000_000}) {
      TraceHeader header = new TraceHeader(1, resolution, start);
      List<Op> ops = Op.random(header, 5_000, start ^ resolution);

      byte[] binary = binary(header, ops);
      byte[] text = text(header, ops);

      assertThat(read(binary)).isEqualTo(ops);
      assertThat(read(text)).isEqualTo(ops);
      try (TraceReader reader = TraceReader.open(new ByteArrayInputStream(binary))) {
        assertThat(reader.header()).isEqualTo(header);
      }
      try (TraceReader reader = TraceReader.open(new ByteArrayInputStream(text))) {
        assertThat(reader.header()).isEqualTo(header);
      }
    }
  }

  @Test
  void binaryKeepsTimesInWholeTicksNeverEarlier() throws IOException {
    TraceHeader header = new TraceHeader(1, 1000, 0);
    byte[] trace = binary(header, List.of(
        new Op(TraceOp.ADVANCE, 2_999, 0, 0, 0, 0),
        new Op(TraceOp.SCHEDULE, 2_999, 0, 1_001, 0, 0),
        new Op(TraceOp.RESCHEDULE, 2_999, 0, -5, 0, 0)));

    assertThat(read(trace)).containsExactly(
        new Op(TraceOp.ADVANCE, 2_000, 0, 0, 0, 0),       // the clock rounds down to its tick
        new Op(TraceOp.SCHEDULE, 2_000, 0, 2_000, 0, 0),  // a delay rounds up
        new Op(TraceOp.RESCHEDULE, 2_000, 0, 0, 0, 0));   // a past deadline is due now
  }

  @Test
  void typicalRecordsTakeOneToFourBytes() throws IOException {
    // Connections numbered in order, one fixed idle timeout, touched at random, the clock moving
    // by a millisecond: the shape the delay list and the next-id bit are for.
    java.util.SplittableRandom random = new java.util.SplittableRandom(1);
    List<Op> ops = new java.util.ArrayList<>();
    long time = 0;
    for (int id = 0; id < 10_000; id++) {
      ops.add(new Op(TraceOp.SCHEDULE, time, id, 30_000_000_000L, 0, 0));
    }
    for (int i = 0; i < 100_000; i++) {
      if (i % 10 == 0) {
        time += 1_000_000;
        ops.add(new Op(TraceOp.ADVANCE, time, 0, 0, 0, 0));
      }
      ops.add(new Op(TraceOp.RESCHEDULE, time, random.nextInt(10_000), 30_000_000_000L, 0, 0));
    }

    double bytesPerRecord = (double) binary(MILLIS, ops).length / ops.size();

    assertThat(bytesPerRecord).isBetween(1.0, 4.0);
  }

  @Test
  void refusesAnEmptyFileAndAFileThatIsNoTrace() {
    assertThatThrownBy(() -> read(new byte[0]))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("byte offset 0").hasMessageContaining("empty");
    byte[] notATrace = {(byte) 0x89, 'P', 'N', 'G', 1, 2, 3};
    assertThatThrownBy(() -> read(notATrace))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("byte offset 0").hasMessageContaining("not a binary timer trace");
  }

  @Test
  void refusesANewerVersionSayingWhichItReads() throws IOException {
    byte[] trace = binary(MILLIS, List.of());
    trace[4] = 2;

    assertThatThrownBy(() -> read(trace))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("byte offset 4")
        .hasMessageContaining("version 2 is not supported")
        .hasMessageContaining("reads version 1")
        .hasMessageContaining("newer");
  }

  @Test
  void everyTruncationOfABinaryTraceIsReportedNeverReadAsComplete() throws IOException {
    byte[] trace = binary(MILLIS, Op.random(MILLIS, 300, 7));

    for (int length = 0; length < trace.length; length++) {
      byte[] cut = Arrays.copyOf(trace, length);
      long cutAt = length;
      assertThatThrownBy(() -> read(cut))
          .as("cut to %d of %d bytes", length, trace.length)
          .isInstanceOf(TraceFormatException.class)
          .hasMessageMatching("trace is invalid at byte offset \\d+: .*")
          .satisfies(e -> assertThat(((TraceFormatException) e).offset()).isBetween(0L, cutAt));
    }
  }

  @Test
  void aTraceCutAtABlockBoundarySaysTheEndRecordIsMissing() throws IOException {
    // More than one block: the cut lands exactly after the first block's checksum.
    List<Op> ops = Op.random(MILLIS, 100_000, 3);
    byte[] trace = binary(MILLIS, ops);
    int headerLength = 4 + 1 + 1 + 3 + 8 + 4; // magic, version, unit 1, resolution 10^6, start, CRC
    int blockLength = (trace[headerLength] & 0x7F) | (trace[headerLength + 1] & 0x7F) << 7
        | (trace[headerLength + 2] & 0x7F) << 14;
    int firstBlockEnd = headerLength + 3 + blockLength + 4;

    assertThatThrownBy(() -> read(Arrays.copyOf(trace, firstBlockEnd)))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("byte offset " + firstBlockEnd)
        .hasMessageContaining("without the end record");
  }

  @Test
  void everyCorruptByteOfABinaryTraceIsReportedWithItsOffset() throws IOException {
    byte[] trace = binary(MILLIS, Op.random(MILLIS, 300, 11));

    for (int at = 0; at < trace.length; at++) {
      for (int bit : new int[] {0x01, 0x40, 0x80}) {
        byte[] corrupt = trace.clone();
        corrupt[at] ^= (byte) bit;
        assertThatThrownBy(() -> read(corrupt))
            .as("bit 0x%02x of byte %d flipped", bit, at)
            .isInstanceOf(TraceFormatException.class)
            .hasMessageMatching("trace is invalid at byte offset \\d+: .*");
      }
    }
  }

  @Test
  void aCorruptBlockIsReportedBeforeAnyOfItsRecordsIsHandedOut() throws IOException {
    List<Op> ops = Op.random(MILLIS, 1000, 5);
    byte[] trace = binary(MILLIS, ops);
    trace[trace.length - 20] ^= 0x10;

    try (TraceReader reader = TraceReader.open(new ByteArrayInputStream(trace))) {
      assertThatThrownBy(reader::next)
          .isInstanceOf(TraceFormatException.class)
          .hasMessageContaining("byte offset 21")      // the only block starts after the header
          .hasMessageContaining("CRC-32");
      assertThatThrownBy(reader::next)                 // and it stays failed
          .isInstanceOf(TraceFormatException.class);
    }
  }

  @Test
  void dataAfterTheEndRecordIsReported() throws IOException {
    byte[] trace = binary(MILLIS, Op.random(MILLIS, 10, 5));
    byte[] longer = Arrays.copyOf(trace, trace.length + 1);

    assertThatThrownBy(() -> read(longer))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("byte offset " + trace.length)
        .hasMessageContaining("follows the end record");
  }

  @Test
  void handWrittenTextImpliesTheAdvancesItsTimesNeed() throws IOException {
    String trace = """
        # timerqueue-trace 1 unitNanos=1000000 resolution=1 start=100
        # time op id delay: times and delays in milliseconds
        100 schedule 1 30000
        100 schedule 2 500
        105 cancel 2
        105 within 3 1000 50

        2000 advance
        2100 reschedule 1 30000
        2100 clear
        """;

    assertThat(read(trace.getBytes(StandardCharsets.US_ASCII))).containsExactly(
        new Op(TraceOp.SCHEDULE, 100, 1, 30_000, 0, 0),
        new Op(TraceOp.SCHEDULE, 100, 2, 500, 0, 0),
        new Op(TraceOp.ADVANCE, 105, 0, 0, 0, 0),
        new Op(TraceOp.CANCEL, 105, 2, 0, 0, 0),
        new Op(TraceOp.SCHEDULE_WITHIN, 105, 3, 1000, 50, 0),
        new Op(TraceOp.ADVANCE, 2000, 0, 0, 0, 0),
        new Op(TraceOp.ADVANCE, 2100, 0, 0, 0, 0),
        new Op(TraceOp.RESCHEDULE, 2100, 1, 30_000, 0, 0),
        new Op(TraceOp.CLEAR, 2100, 0, 0, 0, 0));
  }

  @Test
  void textWithoutAHeaderStartsAtItsFirstRecordInTicksOfOne() throws IOException {
    byte[] trace = "7 schedule 1 5\n9 cancel 1\n".getBytes(StandardCharsets.US_ASCII);

    try (TraceReader reader = TraceReader.open(new ByteArrayInputStream(trace))) {
      assertThat(reader.header()).isEqualTo(new TraceHeader(0, 1, 7));
      assertThat(Op.readAll(reader)).containsExactly(
          new Op(TraceOp.SCHEDULE, 7, 1, 5, 0, 0),
          new Op(TraceOp.ADVANCE, 9, 0, 0, 0, 0),
          new Op(TraceOp.CANCEL, 9, 1, 0, 0, 0));
    }
  }

  @Test
  void textErrorsNameTheLinesOffset() {
    String head = "# timerqueue-trace 1 unitNanos=1 resolution=1 start=0\n";
    int offset = head.length() + "0 schedule 1 5\n".length();
    assertTextError(head + "0 schedule 1 5\n0 snooze 1\n", offset + 2, "unknown op 'snooze'");
    assertTextError(head + "0 schedule 1 5\n0 cancel\n", offset, "'cancel' takes 1 values");
    assertTextError(head + "0 schedule 1 5\n0 cancel x\n", offset, "id 'x' is not a whole number");
    assertTextError(head + "0 schedule 1 5\n-1 cancel 1\n", offset, "earlier than the trace's");
    assertTextError(head + "0 schedule 1 5\n0 cancel 1", offset, "truncated");
    assertTextError(head + "0 schedule 1 5\n0 end 2\n", offset, "counts 2 records");
    assertTextError(head + "0 schedule 1 5\n0 end 1\n1 cancel 1\n", offset + 8, "follows the end");
    assertTextError("# timerqueue-trace 2\n", 0, "reads version 1");
  }

  @Test
  void everyTruncationOfAWrittenTextTraceInsideALineIsReported() throws IOException {
    byte[] trace = text(MILLIS, Op.random(MILLIS, 100, 13));

    for (int length = 1; length < trace.length; length++) {
      if (trace[length - 1] == '\n') {
        continue; // a cut between lines: see below
      }
      byte[] cut = Arrays.copyOf(trace, length);
      assertThatThrownBy(() -> read(cut))
          .as("cut to %d of %d bytes", length, trace.length)
          .isInstanceOf(TraceFormatException.class)
          .hasMessageContaining("truncated");
    }
  }

  @Test
  void theSpecsExampleReadsAsItSaysAndTakes53BytesInBinary() throws IOException {
    String example = """
        # timerqueue-trace 1 unitNanos=1000000 resolution=1 start=0
        0 schedule 1 30000
        0 schedule 2 30000
        1000 schedule 3 500
        1003 cancel 3
        2500 reschedule 1 30000
        32500 advance
        32500 end 6
        """;
    List<Op> ops = read(example.getBytes(StandardCharsets.US_ASCII));

    assertThat(ops).extracting(Op::op).containsExactly(TraceOp.SCHEDULE, TraceOp.SCHEDULE,
        TraceOp.ADVANCE, TraceOp.SCHEDULE, TraceOp.ADVANCE, TraceOp.CANCEL, TraceOp.ADVANCE,
        TraceOp.RESCHEDULE, TraceOp.ADVANCE);
    TraceHeader header = new TraceHeader(1_000_000, 1, 0);
    byte[] binary = binary(header, ops);
    assertThat(binary).hasSize(53); // docs/trace-format.md: 21 header, 5 framing, 27 records
    assertThat(read(binary)).isEqualTo(ops);
  }

  private static void assertTextError(String trace, long offset, String problem) {
    assertThatThrownBy(() -> read(trace.getBytes(StandardCharsets.US_ASCII)))
        .isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("byte offset " + offset + ":")
        .hasMessageContaining(problem)
        .satisfies(e -> assertThat(((TraceFormatException) e).offset()).isEqualTo(offset));
  }
}
