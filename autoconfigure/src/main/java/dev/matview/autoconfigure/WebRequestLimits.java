package dev.matview.autoconfigure;

import dev.matview.web.RequestLimits;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.unit.DataSize;

/** The limits of requests to the lookup endpoints, as {@code matview.web.*} sets them. */
final class WebRequestLimits {

  private WebRequestLimits() {}

  /**
   * The limits {@code properties} set.
   *
   * @throws InvalidConfigurationPropertyValueException naming a limit out of range
   */
  static RequestLimits of(MatviewProperties properties) {
    DataSize maxBatchBody = properties.getWeb().getMaxBatchBody();
    if (maxBatchBody.toBytes() < 1) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.web.max-batch-body",
          maxBatchBody,
          "It must be at least 1 byte, for example 2MB.");
    }
    DataSize maxKeyLength = properties.getWeb().getMaxKeyLength();
    if (maxKeyLength.toBytes() < 1 || maxKeyLength.toBytes() > Integer.MAX_VALUE) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.web.max-key-length",
          maxKeyLength,
          "It must be at least 1 byte and below 2GB, for example 1KB.");
    }
    return new RequestLimits(maxBatchBody, maxKeyLength);
  }
}
