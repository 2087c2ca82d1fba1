package dev.matview.view;

import java.time.Instant;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

/**
 * A view's source topic, the types of its record keys and values, and where event time comes from.
 *
 * @param topic the source topic
 * @param keyType the record key type
 * @param valueType the record value type
 * @param valueSerde the serde of record values, or {@code null} for JSON
 * @param eventTime reads event time from a value, or {@code null} for the record timestamp
 * @param <SK> the record key type
 * @param <V> the record value type
 */
public record ViewSource<SK, V>(
    String topic,
    Class<SK> keyType,
    Class<V> valueType,
    @Nullable Serde<V> valueSerde,
    @Nullable Function<? super V, ? extends @Nullable Instant> eventTime) {}
