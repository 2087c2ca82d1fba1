package dev.matview.query.answer;

import java.util.List;

/** The windows of one key whose start lies in the asked range, oldest first. */
public record WindowsAnswer(Object key, List<WindowValue> windows, Replica replica) {}
