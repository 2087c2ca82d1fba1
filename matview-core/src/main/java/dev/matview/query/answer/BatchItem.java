package dev.matview.query.answer;

import org.jspecify.annotations.Nullable;

/** The answer for one {@code key} of a batch lookup: whether it has a value, and the value. */
public record BatchItem(Object key, boolean found, @Nullable Object value) {}
