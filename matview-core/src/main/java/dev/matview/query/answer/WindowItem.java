package dev.matview.query.answer;

import java.time.Instant;

/**
 * One window of one key of a view.
 *
 * @param key the key
 * @param start the window's start
 * @param end the window's end
 * @param value the window's value
 */
public record WindowItem(Object key, Instant start, Instant end, Object value) {}
