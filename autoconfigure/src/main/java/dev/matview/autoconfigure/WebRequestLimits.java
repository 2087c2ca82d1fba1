package dev.matview.autoconfigure;

import dev.matview.web.RequestLimits;
import org.springframework.util.unit.DataSize;

/** The limits of requests to the lookup endpoints, as {@code matview.web.*} sets them. */
final class WebRequestLimits {

  private WebRequestLimits() {}

  /** The limits {@code properties} set, refusing one out of range. */
  static RequestLimits of(MatviewProperties properties) {
    DataSize maxBatchBody = properties.getWeb().getMaxBatchBody();
    if (maxBatchBody.toBytes() < 1) {
      throw InvalidMatviewPropertyException.atLeast(
          "matview.web.max-batch-body", maxBatchBody, "1B", "2MB");
    }
    DataSize maxKeyLength = properties.getWeb().getMaxKeyLength();
    if (maxKeyLength.toBytes() < 1 || maxKeyLength.toBytes() > Integer.MAX_VALUE) {
      throw InvalidMatviewPropertyException.outside(
          "matview.web.max-key-length", maxKeyLength, "between 1B and 2GB", "1KB");
    }
    return new RequestLimits(maxBatchBody, maxKeyLength);
  }
}
