package dev.matview.query.answer;

/**
 * One key of a view and its value.
 *
 * @param key the key
 * @param value its value
 */
public record KeyItem(Object key, Object value) {}
