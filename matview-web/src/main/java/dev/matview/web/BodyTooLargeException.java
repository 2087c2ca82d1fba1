package dev.matview.web;

/** A batch body is larger than {@code matview.web.max-batch-body} allows; it was not read. */
class BodyTooLargeException extends RuntimeException {

  private final String view;

  BodyTooLargeException(String view, long maxBytes, long declaredBytes) {
    super(
        "The request body is "
            + (declaredBytes >= 0 ? declaredBytes + " bytes" : "over " + maxBytes + " bytes")
            + "; a batch body may be at most "
            + maxBytes
            + " bytes (matview.web.max-batch-body): split the batch");
    this.view = view;
  }

  String getView() {
    return this.view;
  }
}
