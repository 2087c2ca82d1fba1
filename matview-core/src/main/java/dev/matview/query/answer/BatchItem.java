package dev.matview.query.answer;

import org.jspecify.annotations.Nullable;

/**
 * The answer for one key of a batch lookup.
 *
 * @param key the key as asked
 * @param found whether the key has a value
 * @param value its value, or {@code null}
 */
public record BatchItem(Object key, boolean found, @Nullable Object value) {}
