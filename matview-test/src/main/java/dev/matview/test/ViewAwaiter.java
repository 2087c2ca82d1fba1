package dev.matview.test;

import dev.matview.query.ViewQueryService;
import dev.matview.query.answer.Routed;
import dev.matview.query.answer.ViewUnavailableException;
import dev.matview.query.answer.WindowValue;
import dev.matview.query.answer.WindowsAnswer;
import dev.matview.query.routing.CallerContext;
import dev.matview.topology.ResolvedView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.ObjectMapper;

/**
 * Waits, with Awaitility, until the application's views answer a key as a test expects, asking the
 * starter's own {@link ViewQueryService} as an HTTP lookup would. {@link MatviewIntegrationTest}
 * offers one as a bean.
 *
 * <pre>{@code
 * @Autowired ViewAwaiter views;
 *
 * views.awaitView("orders-per-customer", "alice", 3L);
 * }</pre>
 */
public final class ViewAwaiter {

  /** How long an await lasts by default before it fails. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  private static final Duration POLL_INTERVAL = Duration.ofMillis(100);

  /** The latest window start Kafka can store. */
  private static final Instant LATEST = Instant.ofEpochMilli(Long.MAX_VALUE);

  private final ViewQueryService queryService;

  private final ObjectMapper mapper;

  private final Duration timeout;

  /**
   * An awaiter that asks {@code queryService}, writes record keys as JSON with {@code mapper} (the
   * views' own) and waits {@link #DEFAULT_TIMEOUT} at most.
   */
  public ViewAwaiter(ViewQueryService queryService, ObjectMapper mapper) {
    this(queryService, mapper, DEFAULT_TIMEOUT);
  }

  private ViewAwaiter(ViewQueryService queryService, ObjectMapper mapper, Duration timeout) {
    this.queryService = Objects.requireNonNull(queryService, "queryService must not be null");
    this.mapper = Objects.requireNonNull(mapper, "mapper must not be null");
    this.timeout = timeout;
  }

  /** This awaiter, waiting {@code timeout} at most. */
  public ViewAwaiter within(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout must not be null");
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must be positive, was " + timeout);
    }
    return new ViewAwaiter(this.queryService, this.mapper, timeout);
  }

  /**
   * Waits until table view {@code view} answers {@code key} with a value equal to {@code expected},
   * and returns that value.
   *
   * @throws IllegalArgumentException when there is no such table view, or the key or expected value
   *     is not of its types
   * @throws org.awaitility.core.ConditionTimeoutException when it does not within the timeout
   */
  public <A> A awaitView(String view, Object key, A expected) {
    Objects.requireNonNull(expected, "expected must not be null");
    @SuppressWarnings("unchecked")
    Class<A> type = (Class<A>) expected.getClass();
    ResolvedView<?, ?, ?> resolved = table(view);
    ViewChecks.requireValueType(resolved, type, "expect a value of type");
    return awaitValue(
        resolved,
        key,
        type,
        value -> {
          if (!expected.equals(value)) {
            throw new AssertionError(
                "View '" + view + "' answers key " + key + " with " + value + ", not " + expected);
          }
        });
  }

  /**
   * Waits until table view {@code view} answers {@code key} with a value of {@code valueType} that
   * passes {@code assertion} (which throws an {@link AssertionError} until it does), and returns
   * that value.
   *
   * @throws IllegalArgumentException when there is no such table view, or the key or value type is
   *     not its own
   * @throws org.awaitility.core.ConditionTimeoutException when it does not within the timeout
   */
  public <A> A awaitView(
      String view, Object key, Class<A> valueType, Consumer<? super A> assertion) {
    ResolvedView<?, ?, ?> resolved = table(view);
    ViewChecks.requireValueType(resolved, valueType, "pass as the value type");
    return awaitValue(resolved, key, valueType, assertion);
  }

  /**
   * Waits until windowed or session view {@code view} answers {@code key} with windows whose values
   * are of {@code valueType} and that pass {@code assertion} (which throws an {@link
   * AssertionError} until they do), and returns those windows, oldest first.
   *
   * @throws IllegalArgumentException when there is no such windowed or session view, or the key or
   *     value type is not its own
   * @throws org.awaitility.core.ConditionTimeoutException when it does not within the timeout
   */
  public <A> List<WindowedValue<A>> awaitWindows(
      String view,
      Object key,
      Class<A> valueType,
      Consumer<? super List<WindowedValue<A>>> assertion) {
    ResolvedView<?, ?, ?> resolved = ViewChecks.named(this.queryService.views(), view);
    ViewChecks.requireWindows(
        resolved, "wait for its value with awaitView(view, key, expected) instead");
    ViewChecks.requireValueType(resolved, valueType, "pass as the value type");
    String rawKey = rawKey(resolved, key);
    return await(view, key, () -> windows(resolved, rawKey, valueType), assertion);
  }

  private ResolvedView<?, ?, ?> table(String view) {
    ResolvedView<?, ?, ?> resolved = ViewChecks.named(this.queryService.views(), view);
    ViewChecks.requireTable(
        resolved, "wait for its windows with awaitWindows(view, key, type, assertion) instead");
    return resolved;
  }

  private <A> A awaitValue(
      ResolvedView<?, ?, ?> view, Object key, Class<A> type, Consumer<? super A> assertion) {
    String rawKey = rawKey(view, key);
    return await(
        view.name(),
        key,
        () -> {
          Object value = value(view, rawKey);
          if (value == null) {
            throw new AssertionError("View '" + view.name() + "' has no value for key " + key);
          }
          return type.cast(value);
        },
        assertion);
  }

  private <T> T await(String view, Object key, Supplier<T> answer, Consumer<? super T> assertion) {
    AtomicReference<@Nullable T> passed = new AtomicReference<>();
    Awaitility.await("view '" + view + "' answering key " + key)
        .atMost(this.timeout)
        .pollDelay(Duration.ZERO)
        .pollInterval(POLL_INTERVAL)
        .untilAsserted(
            () -> {
              T found = answer.get();
              assertion.accept(found);
              passed.set(found);
            });
    return Objects.requireNonNull(passed.get());
  }

  private @Nullable Object value(ResolvedView<?, ?, ?> view, String rawKey) {
    return answered(view, () -> this.queryService.get(view.name(), rawKey, CallerContext.direct()))
        .value();
  }

  private <A> List<WindowedValue<A>> windows(
      ResolvedView<?, ?, ?> view, String rawKey, Class<A> type) {
    WindowsAnswer answer =
        answered(
            view,
            () ->
                this.queryService.windows(
                    view.name(), rawKey, Instant.EPOCH, LATEST, CallerContext.direct()));
    Function<WindowValue, WindowedValue<A>> typed =
        window -> new WindowedValue<>(window.start(), window.end(), type.cast(window.value()));
    return answer.windows().stream().map(typed).toList();
  }

  /**
   * The answer this instance gave, or an assertion error that says why it gave none yet; the test's
   * own thread waits for it.
   */
  private static <T> T answered(
      ResolvedView<?, ?, ?> view, Supplier<CompletableFuture<Routed<T>>> lookup) {
    Routed<T> routed;
    try {
      routed = lookup.get().join();
    } catch (ViewUnavailableException ex) {
      throw new AssertionError("View '" + view.name() + "' cannot answer yet: " + ex.getMessage());
    } catch (CompletionException wrapped) {
      if (!(wrapped.getCause() instanceof ViewUnavailableException ex)) {
        throw wrapped;
      }
      throw new AssertionError("View '" + view.name() + "' cannot answer yet: " + ex.getMessage());
    }
    if (routed instanceof Routed.Local<T> local) {
      return local.answer();
    }
    if (routed instanceof Routed.Refused<T> refused) {
      throw new AssertionError(
          "View '" + view.name() + "' cannot answer yet: " + refused.refusal().detail());
    }
    throw new AssertionError(
        "View '" + view.name() + "' was answered by another instance, not by this application");
  }

  private String rawKey(ResolvedView<?, ?, ?> view, Object key) {
    return RawKeys.of(view, this.mapper, key);
  }
}
