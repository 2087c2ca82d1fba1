package dev.matview.query.scan;

import dev.matview.query.answer.KeyItem;
import dev.matview.query.answer.WindowItem;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;

/**
 * Writes a batch of scan items, each as the JSON object a page holds and a line of its own, in one
 * call: the item's fields by name, each window bound formatted once per batch as ISO-8601 text.
 * Used only where the mapper writes items and instants exactly so ({@link ScanLines}).
 */
final class ItemBatchSerializer extends ValueSerializer<ItemBatchSerializer.Batch> {

  private static final SerializableString KEY = new SerializedString("key");

  private static final SerializableString VALUE = new SerializedString("value");

  private static final SerializableString START = new SerializedString("start");

  private static final SerializableString END = new SerializedString("end");

  @Override
  public void serialize(Batch batch, JsonGenerator generator, SerializationContext context) {
    Map<Instant, String> bounds = new HashMap<>();
    for (Object item : batch.items()) {
      if (item instanceof KeyItem key) {
        generator.writeStartObject(key);
        generator.writeName(KEY);
        context.writeValue(generator, key.key());
        generator.writeName(VALUE);
        context.writeValue(generator, key.value());
        generator.writeEndObject();
      } else if (item instanceof WindowItem window) {
        generator.writeStartObject(window);
        generator.writeName(KEY);
        context.writeValue(generator, window.key());
        generator.writeName(START);
        generator.writeString(bounds.computeIfAbsent(window.start(), IsoInstants::format));
        generator.writeName(END);
        generator.writeString(bounds.computeIfAbsent(window.end(), IsoInstants::format));
        generator.writeName(VALUE);
        context.writeValue(generator, window.value());
        generator.writeEndObject();
      } else {
        context.writeValue(generator, item);
      }
      generator.writeRaw('\n');
    }
  }

  /** Scan items to write as lines. */
  record Batch(List<?> items) {}
}
