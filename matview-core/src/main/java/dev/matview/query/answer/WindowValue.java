package dev.matview.query.answer;

import java.time.Instant;

/**
 * The value of a key in one window, which ends exclusively for time windows, inclusively for
 * sessions.
 */
public record WindowValue(Instant start, Instant end, Object value) {}
