package dev.matview.web;

/** A key in the request path is longer than {@code matview.web.max-key-length} allows. */
class KeyTooLongException extends RuntimeException {

  private final String view;

  KeyTooLongException(String view, long length, long maxLength) {
    super(
        "The key is "
            + length
            + " bytes long (UTF-8); keys may be at most "
            + maxLength
            + " bytes (matview.web.max-key-length)");
    this.view = view;
  }

  String getView() {
    return this.view;
  }
}
