package dev.matview.position;

/** A position token that this view cannot take: malformed, forged, or of another view. */
public final class PositionTokenException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  PositionTokenException(String message) {
    super(message);
  }
}
