package dev.matview.web;

/** An endpoint that serves only the other instances of the application was called by another. */
class PeerOnlyException extends RuntimeException {

  private final String view;

  PeerOnlyException(String view) {
    this(
        view,
        "This endpoint serves the other instances of this application while they build a scan"
            + " page, and answers only requests they sign; scan view '"
            + view
            + "' at .../keys or .../windows instead");
  }

  PeerOnlyException(String view, String message) {
    super(message);
    this.view = view;
  }

  String getView() {
    return this.view;
  }
}
