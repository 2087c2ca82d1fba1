package dev.matview.web;

import dev.matview.topology.ResolvedView;
import dev.matview.view.ViewWindow;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * How a view is listed by {@code GET /views}: {@code kind} is {@code table}, {@code windowed} or
 * {@code session}, the types their simple names, {@code window} null for a table.
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

  /** A view's window; a session window's size is its inactivity gap. */
  record WindowInfo(Duration size, Duration advance, Duration grace, Duration retention) {}
}
