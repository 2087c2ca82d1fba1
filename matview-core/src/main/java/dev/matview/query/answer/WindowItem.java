package dev.matview.query.answer;

import java.time.Instant;

/** One window of one key of a view, with its bounds and its value. */
public record WindowItem(Object key, Instant start, Instant end, Object value) {}
