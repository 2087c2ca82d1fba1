package dev.matview.web;

/** The view has no value for the key asked. */
class KeyNotFoundException extends RuntimeException {

  private final String view;

  private final Object key;

  KeyNotFoundException(String view, Object key) {
    super("View '" + view + "' has no value for key '" + key + "'");
    this.view = view;
    this.key = key;
  }

  String getView() {
    return this.view;
  }

  Object getKey() {
    return this.key;
  }
}
