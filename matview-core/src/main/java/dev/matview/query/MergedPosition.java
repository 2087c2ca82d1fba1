package dev.matview.query;

import dev.matview.peer.PeerResponse;
import dev.matview.position.PositionTokenException;
import dev.matview.position.PositionTokens;
import dev.matview.position.ViewPosition;
import dev.matview.query.answer.Routed;
import org.jspecify.annotations.Nullable;

/**
 * The position of an answer put together from several reads, here and on other instances: the merge
 * of theirs, or none as soon as one read's position is not known, since a position that left a read
 * out could let a later answer go back in time for it.
 */
final class MergedPosition {

  private final String view;

  private final @Nullable PositionTokens tokens;

  private @Nullable ViewPosition merged;

  private boolean complete = true;

  MergedPosition(String view, @Nullable PositionTokens tokens) {
    this.view = view;
    this.tokens = tokens;
    this.merged = ViewPosition.empty(view);
  }

  /** Adds the position of a read here, or of the answer another instance passed on. */
  void add(Routed<?> read) {
    if (read instanceof Routed.Local<?> local) {
      add(local.position());
    } else if (read instanceof Routed.Relayed<?> relayed) {
      add(relayed.response());
    }
  }

  /** Adds the position that another instance's answer carries. */
  void add(PeerResponse response) {
    String token = response.header(PositionTokens.HEADER);
    if (token == null || this.tokens == null) {
      this.complete = false;
      return;
    }
    try {
      add(this.tokens.read(this.view, token));
    } catch (PositionTokenException ex) {
      this.complete = false;
    }
  }

  private void add(@Nullable ViewPosition position) {
    ViewPosition known = this.merged;
    if (position == null || known == null) {
      this.complete = false;
    } else {
      this.merged = known.merge(position);
    }
  }

  /** The merged position, or {@code null} when a read's position was not known. */
  @Nullable ViewPosition merged() {
    return this.complete ? this.merged : null;
  }
}
