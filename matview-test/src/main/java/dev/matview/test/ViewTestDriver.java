package dev.matview.test;

import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import dev.matview.topology.ViewSerdes;
import dev.matview.topology.ViewTopologyBuilder;
import dev.matview.view.DecimalBounds;
import dev.matview.view.MaterializedView;
import dev.matview.view.ViewDefinition;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.streams.TopologyTestDriver;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs views on Kafka Streams' {@link TopologyTestDriver}, without a broker: the views are built
 * into a topology by the same model as the starter's ({@link ViewRegistry}, {@link ViewSerdes},
 * {@link ViewTopologyBuilder}), with the starter's dead-letter handlers, so a plain JUnit test
 * pipes records into their source topics and reads what the application would answer.
 *
 * <pre>{@code
 * try (ViewTestDriver driver = ViewTestDriver.builder().viewsOf(OrderViews.class).build()) {
 *   TestSourceTopic<String, Order> orders = driver.sourceTopic("orders", String.class, Order.class);
 *   orders.pipe("order-1", new Order("order-1", "alice", new BigDecimal("12.50"), now));
 *   TestView<String, Long> counts = driver.view("orders-per-customer", String.class, Long.class);
 *   assertThat(counts.get("alice")).isEqualTo(1L);
 * }
 * }</pre>
 *
 * <p>Stream time moves with the event times of the records piped: a window closes to late records
 * once a record at or after its end plus grace reaches the view. Records piped without a timestamp
 * are stamped with the driver's wall-clock time, which stands still until {@link
 * #advanceWallClockTime(Duration)} moves it, and which bounds how far ahead an event time may lie.
 */
public final class ViewTestDriver implements AutoCloseable {

  private final ViewRegistry registry;

  private final JsonMapper jsonMapper;

  private final DriverRun run;

  private ViewTestDriver(ViewRegistry registry, JsonMapper jsonMapper, DriverRun run) {
    this.registry = registry;
    this.jsonMapper = jsonMapper;
    this.run = run;
  }

  /** Starts building a driver. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The source topic {@code topic} of the views, whose records have keys of {@code keyType} and
   * values of {@code valueType}.
   *
   * @throws IllegalArgumentException when no view reads the topic, or reads it with other types
   */
  public <K, V> TestSourceTopic<K, V> sourceTopic(
      String topic, Class<K> keyType, Class<V> valueType) {
    requireOpen();
    ResolvedView<?, ?, ?> reader =
        ViewChecks.readerOf(this.registry.all(), topic, keyType, valueType, "pipe");
    return TestSourceTopic.of(this, topic, reader, this.jsonMapper);
  }

  /**
   * The view named {@code name}, whose keys are of {@code keyType} and values of {@code valueType}.
   *
   * @throws IllegalArgumentException when there is no such view, or it has other types
   */
  public <K, A> TestView<K, A> view(String name, Class<K> keyType, Class<A> valueType) {
    requireOpen();
    ResolvedView<?, ?, ?> view = ViewChecks.named(this.registry.all(), name);
    ViewChecks.requireKeyType(view, keyType, "pass as its key type");
    ViewChecks.requireValueType(view, valueType, "pass as its value type");
    return new TestView<>(this, view);
  }

  /** Every dead letter the views wrote, in the order they were written. */
  public List<DeadLetterRecord> deadLetters() {
    return this.run.deadLetters();
  }

  /** The driver's wall-clock time. */
  public Instant wallClockTime() {
    return this.run.wallClockTime();
  }

  /** Moves the driver's wall-clock time {@code duration} ahead. */
  public void advanceWallClockTime(Duration duration) {
    Objects.requireNonNull(duration, "duration must not be null");
    if (duration.isNegative()) {
      throw new IllegalArgumentException(
          "The wall clock only moves ahead; " + duration + " is negative");
    }
    this.run.advanceWallClockTime(duration);
  }

  /** Closes Kafka Streams' test driver and deletes the views' stores. */
  @Override
  public void close() {
    this.run.close();
  }

  /** Kafka Streams' test driver, while this driver is open. */
  TopologyTestDriver topologyTestDriver() {
    return this.run.topologyTestDriver();
  }

  void requireOpen() {
    this.run.requireOpen();
  }

  /** Builds a {@link ViewTestDriver} from view definitions and the settings they run with. */
  public static final class Builder {

    private final Map<String, ViewDefinition<?, ?, ?>> views = new LinkedHashMap<>();

    private JsonMapper jsonMapper = JsonMapper.builder().build();

    private String applicationId = "matview-test";

    private Instant wallClockTime = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private Duration maxEventTimeAhead = Duration.ofMinutes(1);

    private boolean lateRecordsAsDeadLetters = true;

    private DecimalBounds decimalBounds = DecimalBounds.STANDARD;

    private Builder() {}

    /**
     * Adds the view {@code definition} under {@code name}, as {@code @MaterializedView} names it.
     */
    public Builder view(String name, ViewDefinition<?, ?, ?> definition) {
      Objects.requireNonNull(name, "name must not be null");
      Objects.requireNonNull(definition, "definition must not be null");
      if (this.views.putIfAbsent(name, definition) != null) {
        throw new IllegalArgumentException(
            "View '" + name + "' is added twice: give each view a name of its own");
      }
      return this;
    }

    /**
     * Adds every view that {@code configurations} declare as {@link MaterializedView} beans, under
     * the names the starter gives them; other beans are not created.
     */
    public Builder viewsOf(Class<?>... configurations) {
      if (configurations.length == 0) {
        throw new IllegalArgumentException(
            "viewsOf needs the configuration classes that declare the views");
      }
      DeclaredViews.of(configurations).forEach(this::view);
      return this;
    }

    /** Reads and writes JSON with {@code jsonMapper}, as the application's JSON mapper does. */
    public Builder jsonMapper(JsonMapper jsonMapper) {
      this.jsonMapper = Objects.requireNonNull(jsonMapper, "jsonMapper must not be null");
      return this;
    }

    /**
     * Names the views' internal topics and the dead-letter topic after {@code applicationId}, as
     * {@code spring.kafka.streams.application-id} does; {@code matview-test} by default.
     */
    public Builder applicationId(String applicationId) {
      Objects.requireNonNull(applicationId, "applicationId must not be null");
      if (applicationId.isBlank()) {
        throw new IllegalArgumentException("applicationId must not be blank");
      }
      this.applicationId = applicationId;
      return this;
    }

    /** Starts the driver's wall clock at {@code wallClockTime}; by default, the current time. */
    public Builder wallClockTime(Instant wallClockTime) {
      this.wallClockTime = Objects.requireNonNull(wallClockTime, "wallClockTime must not be null");
      return this;
    }

    /**
     * Accepts event times up to {@code maxEventTimeAhead} after the wall clock, as {@code
     * matview.records.max-event-time-ahead} does; one minute by default.
     */
    public Builder maxEventTimeAhead(Duration maxEventTimeAhead) {
      Objects.requireNonNull(maxEventTimeAhead, "maxEventTimeAhead must not be null");
      if (maxEventTimeAhead.isNegative()) {
        throw new IllegalArgumentException(
            "maxEventTimeAhead must not be negative, was " + maxEventTimeAhead);
      }
      this.maxEventTimeAhead = maxEventTimeAhead;
      return this;
    }

    /**
     * Whether a record that arrives after its windows closed is a dead letter (by default) or only
     * left out, as {@code matview.dead-letter.late-records} says.
     */
    public Builder lateRecordsAsDeadLetters(boolean lateRecordsAsDeadLetters) {
      this.lateRecordsAsDeadLetters = lateRecordsAsDeadLetters;
      return this;
    }

    /**
     * Bounds every decimal read and written as JSON by {@code decimalBounds}, as {@code
     * matview.records.max-decimal-precision} and {@code max-decimal-scale} do; 38 digits, 18 after
     * the point, by default.
     */
    public Builder decimalBounds(DecimalBounds decimalBounds) {
      this.decimalBounds = Objects.requireNonNull(decimalBounds, "decimalBounds must not be null");
      return this;
    }

    /**
     * Builds the views' topology and starts Kafka Streams' test driver on it.
     *
     * @throws dev.matview.topology.InvalidViewException when a view cannot work, as at start-up
     */
    public ViewTestDriver build() {
      if (this.views.isEmpty()) {
        throw new IllegalStateException(
            "A ViewTestDriver needs at least one view: add views with view(name, definition) or"
                + " viewsOf(configuration classes)");
      }
      DriverLogging.quietKafka();
      ViewRegistry registry =
          ViewRegistry.of(
              this.views, new ViewSerdes(this.jsonMapper, this.decimalBounds), this.applicationId);
      return new ViewTestDriver(
          registry,
          this.jsonMapper,
          DriverRun.start(
              registry,
              this.applicationId,
              this.wallClockTime,
              this.maxEventTimeAhead,
              this.lateRecordsAsDeadLetters));
    }
  }
}
