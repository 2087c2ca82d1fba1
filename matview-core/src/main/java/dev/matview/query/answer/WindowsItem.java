package dev.matview.query.answer;

/**
 * The answer for one key of a batch lookup of a windowed or session view.
 *
 * @param key the key as asked
 * @param windows its windows whose start lies in the asked range, oldest first: the {@link
 *     WindowValue}s read here, or the JSON array another instance answered for them
 */
public record WindowsItem(Object key, Object windows) {}
