package dev.matview.query;

import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ObjectReader;

/**
 * How Matview reads the JSON a request sends: with the application's mapper, left as it is, but
 * refusing an object that names a field twice instead of letting the last value silently win.
 */
public final class RequestJson {

  private RequestJson() {}

  /** A reader of {@code mapper}'s settings that refuses a field named twice in one object. */
  public static ObjectReader reader(ObjectMapper mapper) {
    return mapper.reader().with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
  }
}
