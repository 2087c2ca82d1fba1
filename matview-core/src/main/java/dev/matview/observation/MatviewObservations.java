package dev.matview.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.function.Supplier;

/**
 * The names and key values of Matview's observations, and how each starts: as a child of the
 * observation given as its parent, in that observation's registry, so that nothing is made when the
 * parent is {@link Observation#NOOP}; the parent's scope is open while the child starts, since a
 * tracing handler takes a span current on the thread (the HTTP request's, on a request thread) over
 * the parent observation's. Every low-cardinality key value but {@value #OUTCOME} is set at the
 * start; {@value #OUTCOME} is set when the observation stops.
 */
public final class MatviewObservations {

  /**
   * A lookup: a key ({@code key}), a key's windows ({@code windows}) or a batch ({@code batch}).
   */
  public static final String LOOKUP = "matview.lookup";

  /** A scan of a view's keys ({@code keys}) or windows ({@code windows}), by page or streamed. */
  public static final String SCAN = "matview.scan";

  /** A change stream of a key ({@code key}) or of a whole view ({@code view}), open to its end. */
  public static final String CHANGE_STREAM = "matview.change-stream";

  /** A request to another instance of the application, from its sending to its answer's end. */
  public static final String PEER_EXCHANGE = "matview.peer.exchange";

  /** The view's name: a view of the application, or {@code unknown}. */
  public static final String VIEW = "view";

  /** What was asked: {@code key}, {@code windows}, {@code batch}, {@code keys}, {@code view}... */
  public static final String OPERATION = "operation";

  /** A scan's form: {@code page} or {@code stream}. */
  public static final String MODE = "mode";

  /**
   * How it ended: for reads {@code local}, {@code forwarded}, {@code refused}, {@code invalid} or
   * {@code error}; for streamed scans {@code complete} or {@code incomplete}; for change streams
   * {@code local}, {@code relayed} or {@code refused}; for peer exchanges {@code answered}, {@code
   * unreachable}, {@code timeout}, {@code failed} or {@code cancelled}.
   */
  public static final String OUTCOME = "outcome";

  /** A peer exchange's HTTP status, or {@code none}. */
  public static final String STATUS = "status";

  /** The other instance of a peer exchange, {@code host:port}: high cardinality. */
  public static final String PEER = "peer";

  private MatviewObservations() {}

  /**
   * Starts the observation {@code name} of {@code operation} of {@code view}, with {@code more} key
   * values, as a child of {@code parent}; {@link Observation#NOOP} when {@code parent} is, or its
   * registry does not observe {@code name} (then the parent's scope is not opened either).
   */
  public static Observation start(
      Observation parent, String name, String view, String operation, KeyValues more) {
    return start(parent, name, Observation.Context::new, view, operation, more);
  }

  /**
   * Starts the observation {@code name} as {@link #start(Observation, String, String, String,
   * KeyValues)} does, with the context {@code context} makes, which a tracing handler reads (a
   * sender's context carries the headers it writes its trace context into).
   */
  public static <C extends Observation.Context> Observation start(
      Observation parent,
      String name,
      Supplier<C> context,
      String view,
      String operation,
      KeyValues more) {
    if (parent.isNoop()) {
      return Observation.NOOP;
    }
    ObservationRegistry registry = parent.getObservationRegistry();
    Observation child =
        Observation.createNotStarted(name, context, registry)
            .parentObservation(parent)
            .contextualName(name + " " + operation)
            .lowCardinalityKeyValue(VIEW, view)
            .lowCardinalityKeyValue(OPERATION, operation)
            .lowCardinalityKeyValues(more);
    if (child.isNoop()) {
      return child;
    }
    try (Observation.Scope scope = parent.openScope()) {
      return child.start();
    }
  }

  /** Stops {@code observation} with {@code outcome}. */
  public static void stop(Observation observation, String outcome) {
    if (!observation.isNoop()) {
      observation.lowCardinalityKeyValue(OUTCOME, outcome).stop();
    }
  }

  /** Stops {@code observation} with {@code outcome} and the {@code failure} that ended it. */
  public static void stop(Observation observation, String outcome, Throwable failure) {
    if (!observation.isNoop()) {
      observation.lowCardinalityKeyValue(OUTCOME, outcome).error(failure).stop();
    }
  }
}
