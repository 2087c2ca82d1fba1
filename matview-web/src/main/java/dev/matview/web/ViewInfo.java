package dev.matview.web;

import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * How a view is listed by {@code GET /views}.
 *
 * @param name the view's name
 * @param kind {@code table}, {@code windowed} or {@code session}
 * @param keyType the simple name of the key type
 * @param valueType the simple name of the value type
 * @param window the window, or {@code null} for a table
 * @param storeName the state store's name
 * @param changelogTopic the store's changelog topic
 * @param sourceTopic the topic the view reads
 */
record ViewInfo(
    String name,
    String kind,
    String keyType,
    String valueType,
    @Nullable WindowInfo window,
    String storeName,
    String changelogTopic,
    String sourceTopic) {

  static ViewInfo of(ResolvedView<?, ?, ?> view, String applicationId) {
    ViewWindow window = view.window();
    return new ViewInfo(
        view.name(),
        view.kind().label(),
        view.definition().keyType().getSimpleName(),
        view.definition().aggregateType().getSimpleName(),
        window != null
            ? new WindowInfo(
                window.size(), window.advance(), window.grace(), window.effectiveRetention())
            : null,
        view.storeName(),
        view.changelogTopic(applicationId),
        view.sourceTopic());
  }

  /**
   * A view's window; a session window's size is its inactivity gap.
   *
   * @param size the window's size
   * @param advance how far windows start apart
   * @param grace how late records may arrive
   * @param retention how long windows are kept
   */
  record WindowInfo(Duration size, Duration advance, Duration grace, Duration retention) {}
}
