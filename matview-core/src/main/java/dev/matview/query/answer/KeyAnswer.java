package dev.matview.query.answer;

import org.jspecify.annotations.Nullable;

/** The value of one key, {@code null} when it has none, and the replica that answered. */
public record KeyAnswer(Object key, @Nullable Object value, Replica replica) {}
