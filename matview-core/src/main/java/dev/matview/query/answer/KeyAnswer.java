package dev.matview.query.answer;

import org.jspecify.annotations.Nullable;

/**
 * The value of one key, or {@code null} when the key has none, and the replica that answered.
 *
 * @param key the parsed key
 * @param value the key's value, or {@code null}
 * @param replica the replica that answered
 */
public record KeyAnswer(Object key, @Nullable Object value, Replica replica) {}
