package dev.matview.view;

/** Starts the definition of a view from its source topic. */
public final class Views {

  private Views() {}

  /**
   * A view over {@code topic}, whose record keys are strings and values JSON of {@code valueType}.
   */
  public static <V> ViewBuilder<String, V> from(String topic, Class<V> valueType) {
    return from(topic, String.class, valueType);
  }

  /** A view over {@code topic} with the given record key and value types. */
  public static <SK, V> ViewBuilder<SK, V> from(
      String topic, Class<SK> keyType, Class<V> valueType) {
    String method = "Views.from(topic, keyType, valueType)";
    ViewDefinitionException.required(keyType, "keyType", method);
    ViewDefinitionException.required(valueType, "valueType", method);
    return ViewBuilder.forSource(new ViewSource<>(topic, keyType, valueType, null, null));
  }
}
