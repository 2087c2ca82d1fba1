package dev.matview.web;

import org.springframework.util.unit.DataSize;

/**
 * How large a lookup request may be: a larger batch body is refused with 413 unread, a longer key
 * (in UTF-8 bytes) with 414 in a path and 400 in a batch.
 */
public record RequestLimits(DataSize maxBatchBody, DataSize maxKeyLength) {

  /** The defaults of {@code matview.web.max-batch-body} and {@code matview.web.max-key-length}. */
  public static final RequestLimits DEFAULTS =
      new RequestLimits(DataSize.ofMegabytes(2), DataSize.ofKilobytes(1));

  /** Limits checked to be at least one byte. */
  public RequestLimits {
    if (maxBatchBody.toBytes() < 1) {
      throw new IllegalArgumentException("The largest batch body must be at least 1 byte");
    }
    if (maxKeyLength.toBytes() < 1 || maxKeyLength.toBytes() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "The longest key must be between 1 byte and " + Integer.MAX_VALUE + " bytes");
    }
  }
}
