package dev.matview.view;

import java.time.Instant;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.jspecify.annotations.Nullable;

/**
 * A view's source topic, the types of its record keys and values, the serde of its values ({@code
 * null} for JSON), and what reads event time from a value ({@code null} for the record timestamp).
 */
public record ViewSource<SK, V>(
    String topic,
    Class<SK> keyType,
    Class<V> valueType,
    @Nullable Serde<V> valueSerde,
    @Nullable Function<? super V, ? extends @Nullable Instant> eventTime) {}
