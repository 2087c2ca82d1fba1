package dev.matview.changes;

/** A change stream refused because this instance serves {@code matview.changes.max-streams}. */
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

  /** The view whose stream was asked for. */
  public String getView() {
    return this.view;
  }
}
