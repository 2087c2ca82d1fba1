package dev.matview.query.answer;

/** The answer for one key of a batch of a windowed view: its windows read here, or as JSON. */
public record WindowsItem(Object key, Object windows) {}
