package dev.matview.changes;

import dev.matview.replica.StoreChange;
import dev.matview.topology.ResolvedView;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * Turns the updates of one view's store into change events: the key and value read with the view's
 * serdes (a table's and a time window's value after Kafka Streams' 8-byte timestamp), as JSON.
 */
final class ChangeDecoder {

  private final ResolvedView<?, ?, ?> view;

  private final String storeTopic;

  private final ObjectMapper mapper;

  private final boolean timestamped;

  ChangeDecoder(ResolvedView<?, ?, ?> view, String storeTopic, ObjectMapper mapper) {
    this.view = view;
    this.storeTopic = storeTopic;
    this.mapper = mapper;
    this.timestamped =
        view.window() == null || view.window().type() != dev.matview.view.ViewWindow.Type.SESSION;
  }

  /** The event that tells {@code change}, whose id is {@code id}. */
  ChangeEvent event(StoreChange change, @Nullable String id) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("key", key(change.key()));
    boolean windowed = change.windowStart() != StoreChange.NO_WINDOW;
    if (windowed) {
      data.put("start", Instant.ofEpochMilli(change.windowStart()));
      data.put("end", Instant.ofEpochMilli(change.windowEnd()));
    }
    byte[] stored = change.value();
    if (stored != null) {
      data.put("value", value(stored));
    }
    ChangeEvent.Kind kind =
        windowed
            ? (stored != null ? ChangeEvent.Kind.WINDOW : ChangeEvent.Kind.WINDOW_DELETED)
            : (stored != null ? ChangeEvent.Kind.VALUE : ChangeEvent.Kind.DELETED);
    return new ChangeEvent(kind, json(data), id);
  }

  /** The JSON text of {@code data}. */
  String json(Object data) {
    return this.mapper.writeValueAsString(data);
  }

  private Object key(byte[] key) {
    Object read = this.view.keySerde().deserializer().deserialize(this.storeTopic, key);
    return (read != null) ? read : Arrays.toString(key);
  }

  private @Nullable Object value(byte[] stored) {
    byte[] aggregate =
        this.timestamped ? Arrays.copyOfRange(stored, Long.BYTES, stored.length) : stored;
    return this.view.aggregateSerde().deserializer().deserialize(this.storeTopic, aggregate);
  }
}
