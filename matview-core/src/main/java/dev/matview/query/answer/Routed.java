package dev.matview.query.answer;

import dev.matview.peer.PeerResponse;
import dev.matview.position.ViewPosition;
import org.jspecify.annotations.Nullable;

/**
 * An answer given by this instance, the answer of another instance to pass on as it is, or a
 * refusal: every outcome of a lookup that is not a bug or bad input, as a value.
 *
 * @param <T> the type of a local answer
 */
public sealed interface Routed<T> {

  /** This instance answered, read at {@code position} when it is known. */
  record Local<T>(T answer, @Nullable ViewPosition position) implements Routed<T> {

    /** An answer whose position is not known. */
    public Local(T answer) {
      this(answer, null);
    }
  }

  /** The owning instance answered; its status, headers and body are passed on unchanged. */
  record Relayed<T>(PeerResponse response) implements Routed<T> {}

  /** No replica answered: the {@code refusal} says why, and when to ask again. */
  record Refused<T>(Refusal refusal) implements Routed<T> {}

  /** {@code notLocal}, another instance's answer or a refusal, as an outcome of any type. */
  @SuppressWarnings("unchecked")
  static <T> Routed<T> passedOn(Routed<?> notLocal) {
    if (notLocal instanceof Local<?>) {
      throw new IllegalArgumentException("This instance's answer carries a value of its own type");
    }
    return (Routed<T>) notLocal;
  }
}
