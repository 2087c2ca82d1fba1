package dev.matview.changes;

/**
 * A change stream refused because this instance serves {@code matview.changes.max-streams}, or
 * relays as many streams from the instance that owns it as the connections to one instance carry.
 */
public final class TooManyStreamsException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String view;

  TooManyStreamsException(String view, int maxStreams) {
    super(
        "This instance serves "
            + maxStreams
            + " change streams already (matview.changes.max-streams); ask another instance, or"
            + " again later");
    this.view = view;
  }

  /**
   * A stream of {@code view} refused because this instance relays {@code maxRelayed} streams from
   * {@code owner} already, the most the connections to one instance carry.
   */
  TooManyStreamsException(String view, String owner, int maxRelayed) {
    super(
        "This instance relays "
            + maxRelayed
            + " change streams from "
            + owner
            + " already, the most the connections to one instance carry beside its lookups; ask"
            + " "
            + owner
            + " directly, or again later");
    this.view = view;
  }

  /** The view whose stream was asked for. */
  public String getView() {
    return this.view;
  }
}
