package dev.matview.query;

import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;

/**
 * How Matview reads the JSON that a request sends (a body, a JSON key): with the application's
 * mapper, except that an object naming a field twice, at any depth, is refused instead of the last
 * value silently winning. The mapper itself, and with it the application's own controllers, is left
 * as it is.
 */
public final class RequestJson {

  private RequestJson() {}

  /** A reader of {@code mapper}'s settings that refuses a field named twice in one object. */
  public static ObjectReader reader(ObjectMapper mapper) {
    return mapper.reader().with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
  }
}
