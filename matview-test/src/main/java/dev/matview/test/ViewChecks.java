package dev.matview.test;

import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewKind;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Checks a test's request against the views it names, with errors that say how to fix it. */
final class ViewChecks {

  private ViewChecks() {}

  /**
   * The view named {@code name} among {@code views}.
   *
   * @throws IllegalArgumentException naming the views there are when none has that name
   */
  static ResolvedView<?, ?, ?> named(Collection<ResolvedView<?, ?, ?>> views, String name) {
    for (ResolvedView<?, ?, ?> view : views) {
      if (view.name().equals(name)) {
        return view;
      }
    }
    throw new IllegalArgumentException(
        "There is no view named '"
            + name
            + "'; the views are "
            + views.stream().map(ResolvedView::name).toList()
            + ": use the name given in @MaterializedView, or the bean name when it gives none");
  }

  /**
   * A view among {@code views} that reads {@code topic} with record keys of {@code keyType} and
   * values of {@code valueType} (or a subtype: a generic record of GenericRecord), each type any
   * when null; the errors tell a test to {@code verb} ("pipe", "publish") into another topic or
   * with other types.
   *
   * @throws IllegalArgumentException naming the topics or types there are when none does
   */
  static ResolvedView<?, ?, ?> readerOf(
      Collection<ResolvedView<?, ?, ?>> views,
      String topic,
      @Nullable Class<?> keyType,
      @Nullable Class<?> valueType,
      String verb) {
    List<ResolvedView<?, ?, ?>> readers =
        views.stream().filter(view -> view.sourceTopic().equals(topic)).toList();
    if (readers.isEmpty()) {
      throw new IllegalArgumentException(
          "No view reads topic '"
              + topic
              + "'; the views read "
              + views.stream().map(ResolvedView::sourceTopic).distinct().toList()
              + ": "
              + verb
              + " into one of those");
    }
    Class<?> sourceKeyType = readers.get(0).definition().source().keyType();
    if (keyType != null && !sourceKeyType.equals(keyType)) {
      throw new IllegalArgumentException(
          "The views of topic '"
              + topic
              + "' read record keys of type "
              + sourceKeyType.getName()
              + ", not "
              + keyType.getName()
              + ": pass "
              + sourceKeyType.getSimpleName()
              + ".class as the key type");
    }
    return readers.stream()
        .filter(
            view ->
                valueType == null
                    || view.definition().source().valueType().isAssignableFrom(valueType))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "The views of topic '"
                        + topic
                        + "' read values of type "
                        + readers.stream()
                            .map(view -> view.definition().source().valueType().getName())
                            .distinct()
                            .toList()
                        + ", not "
                        + Objects.requireNonNull(valueType).getName()
                        + ": pass one of those, or "
                        + verb
                        + " bytes with "
                        + verb
                        + "Raw"));
  }

  /**
   * Checks that {@code view}'s keys are of type {@code keyType}.
   *
   * @throws IllegalArgumentException saying which type to use instead
   */
  static void requireKeyType(ResolvedView<?, ?, ?> view, Class<?> keyType, String how) {
    Class<?> actual = view.definition().keyType();
    if (!actual.equals(keyType)) {
      throw mismatch(view, "keys", actual, keyType, how);
    }
  }

  /**
   * Checks that {@code view}'s values can be read as {@code valueType}.
   *
   * @throws IllegalArgumentException saying which type to use instead
   */
  static void requireValueType(ResolvedView<?, ?, ?> view, Class<?> valueType, String how) {
    Class<?> actual = view.definition().aggregateType();
    if (!valueType.isAssignableFrom(actual)) {
      throw mismatch(view, "values", actual, valueType, how);
    }
  }

  /**
   * Checks that {@code view} is a table, one value per key.
   *
   * @throws IllegalArgumentException saying what to do {@code instead} when it is not
   */
  static void requireTable(ResolvedView<?, ?, ?> view, String instead) {
    if (view.kind() != ViewKind.TABLE) {
      throw new IllegalArgumentException(describe(view) + ": " + instead);
    }
  }

  /**
   * Checks that {@code view} is a windowed or session view, values per key and window.
   *
   * @throws IllegalArgumentException saying what to do {@code instead} when it is not
   */
  static void requireWindows(ResolvedView<?, ?, ?> view, String instead) {
    if (view.kind() == ViewKind.TABLE) {
      throw new IllegalArgumentException(describe(view) + ": " + instead);
    }
  }

  private static String describe(ResolvedView<?, ?, ?> view) {
    String kind =
        (view.kind() == ViewKind.TABLE) ? "a table" : "a " + view.kind().label() + " view";
    return "View '" + view.name() + "' is " + kind;
  }

  private static IllegalArgumentException mismatch(
      ResolvedView<?, ?, ?> view, String what, Class<?> actual, Class<?> given, String how) {
    return new IllegalArgumentException(
        "View '"
            + view.name()
            + "' has "
            + what
            + " of type "
            + actual.getName()
            + ", not "
            + given.getName()
            + ": "
            + how
            + " "
            + actual.getSimpleName());
  }
}
