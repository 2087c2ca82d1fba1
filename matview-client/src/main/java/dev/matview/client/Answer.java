package dev.matview.client;

import java.util.Objects;

/**
 * What a call answered, with where it came from.
 *
 * @param value the answer
 * @param metadata what the answer's headers say about it
 * @param <T> the type of the answer
 */
public record Answer<T>(T value, AnswerMetadata metadata) {

  /** Checks that both are given. */
  public Answer {
    Objects.requireNonNull(value, "value must not be null");
    Objects.requireNonNull(metadata, "metadata must not be null");
  }
}
