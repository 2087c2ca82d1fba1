package dev.matview.query.answer;

/**
 * Scan items as a streamed scan sends them: one JSON object per line, each line ended by {@code
 * \n}, in the first {@code length} bytes of {@code bytes}.
 *
 * @param bytes the lines' UTF-8 bytes, possibly followed by others that are not theirs
 * @param length how many of the bytes are the lines'
 * @param count how many items the lines hold
 */
public record ItemLines(byte[] bytes, int length, int count) {}
