package dev.matview.query;

import dev.matview.query.answer.InvalidQueryException;
import dev.matview.query.routing.LookupGate;
import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.view.ViewWindow;

/**
 * The views that lookups may ask for by name: an unknown name is a 404, a view of the wrong kind a
 * 400 that says what to ask instead, and every view is refused while this instance shuts down.
 */
final class ServedViews {

  private final ViewRegistry registry;

  private final LookupGate gate;

  ServedViews(ViewRegistry registry, LookupGate gate) {
    this.registry = registry;
    this.gate = gate;
  }

  /** The view named {@code name}; unknown, or refused while this instance shuts down. */
  ResolvedView<?, ?, ?> view(String name) {
    ResolvedView<?, ?, ?> view =
        this.registry
            .find(name)
            .orElseThrow(
                () ->
                    UnknownViewException.among(
                        name, this.registry.all().stream().map(ResolvedView::name).toList()));
    if (this.gate.isClosed()) {
      throw this.gate.refusal(name, null).toException();
    }
    return view;
  }

  /** The table view named {@code name}; another is refused, saying to {@code instead}. */
  ResolvedView<?, ?, ?> table(String name, String parameter, String instead) {
    ResolvedView<?, ?, ?> view = view(name);
    if (view.window() != null) {
      throw new InvalidQueryException(
          name, parameter, "View '" + name + "' is " + view.kind().label() + "; " + instead);
    }
    return view;
  }

  /** The window of {@code view}; a table is refused, saying to {@code instead}. */
  static ViewWindow windowOf(ResolvedView<?, ?, ?> view, String instead) {
    ViewWindow window = view.window();
    if (window == null) {
      throw new InvalidQueryException(
          view.name(), "view", "View '" + view.name() + "' is a table; " + instead);
    }
    return window;
  }
}
