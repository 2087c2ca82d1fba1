package dev.matview.position;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The body of a position token as bytes: 4-byte integers, variable-length integers of 7 bits a byte
 * and strings of UTF-8 after their length, written to a stream and read back without reading past
 * the body's end, anything else refused as a malformed token.
 */
final class TokenBytes {

  private final byte[] bytes;

  private final int end;

  private int at;

  /** A reader of {@code bytes} up to {@code end}. */
  TokenBytes(byte[] bytes, int end) {
    this.bytes = bytes;
    this.end = end;
  }

  void skip(int count) {
    require(count);
    this.at += count;
  }

  int readInt() {
    require(Integer.BYTES);
    int value = 0;
    for (int i = 0; i < Integer.BYTES; i++) {
      value = (value << 8) | (this.bytes[this.at++] & 0xFF);
    }
    return value;
  }

  String readString() {
    int length = readCount();
    require(length);
    String text = new String(this.bytes, this.at, length, StandardCharsets.UTF_8);
    this.at += length;
    return text;
  }

  int readCount() {
    long value = readVarLong();
    if (value > PositionTokens.MAX_LENGTH) {
      throw malformed("it names a count or partition of " + value);
    }
    return (int) value;
  }

  long readVarLong() {
    long value = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      require(1);
      byte next = this.bytes[this.at++];
      value |= (long) (next & 0x7F) << shift;
      if ((next & 0x80) == 0) {
        return value;
      }
    }
    throw malformed("a number in it is too long");
  }

  boolean atEnd() {
    return this.at == this.end;
  }

  private void require(int count) {
    if (count < 0 || this.end - this.at < count) {
      throw malformed("it ends early");
    }
  }

  /** Writes {@code value} as 4 bytes, most significant first. */
  static void writeInt(ByteArrayOutputStream out, int value) {
    out.write(value >>> 24);
    out.write(value >>> 16);
    out.write(value >>> 8);
    out.write(value);
  }

  /** Writes {@code value}, 0 or more, as a variable-length integer of 7 bits a byte. */
  static void writeVarLong(ByteArrayOutputStream out, long value) {
    long rest = value;
    while ((rest & ~0x7FL) != 0) {
      out.write((int) ((rest & 0x7F) | 0x80));
      rest >>>= 7;
    }
    out.write((int) rest);
  }

  /** Writes {@code text} as UTF-8 after its length in bytes. */
  static void writeString(ByteArrayOutputStream out, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    writeVarLong(out, bytes.length);
    out.write(bytes, 0, bytes.length);
  }

  /** The refusal of a token that is malformed for the reason {@code why}. */
  static PositionTokenException malformed(String why) {
    return new PositionTokenException(
        "The position token is malformed ("
            + why
            + "); send back the Matview-Position header of an answer as it came");
  }
}
