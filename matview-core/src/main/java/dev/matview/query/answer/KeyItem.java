package dev.matview.query.answer;

/** One key of a view and its value. */
public record KeyItem(Object key, Object value) {}
