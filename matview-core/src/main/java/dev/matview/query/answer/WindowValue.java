package dev.matview.query.answer;

import java.time.Instant;

/**
 * The value of a key in one window.
 *
 * @param start the window's start, inclusive
 * @param end the window's end, exclusive for time windows and inclusive for sessions
 * @param value the aggregate of the window
 */
public record WindowValue(Instant start, Instant end, Object value) {}
