package dev.matview.health;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.KafkaStreams;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;

/**
 * Keeps Boot's readiness and liveness in line with the views, about once a second, and undoes only
 * what it did, so it never accepts traffic that something else refused, such as a shutdown.
 */
public final class AvailabilityUpdater extends ScheduledLifecycle
    implements ApplicationListener<AvailabilityChangeEvent<?>> {

  private static final Log logger = LogFactory.getLog(AvailabilityUpdater.class);

  private final StreamsHealth health;

  private final BooleanSupplier shouldRun;

  private final ApplicationAvailability availability;

  private final ApplicationEventPublisher publisher;

  private boolean refusedTraffic;

  private boolean brokeLiveness;

  /** Updates {@code availability} from {@code health} every {@code period}. */
  public AvailabilityUpdater(
      StreamsHealth health,
      BooleanSupplier shouldRun,
      ApplicationAvailability availability,
      ApplicationEventPublisher publisher,
      Duration period,
      ScheduledExecutorService timer,
      Executor polls) {
    super(timer, polls, Duration.ZERO, period);
    this.health = health;
    this.shouldRun = shouldRun;
    this.availability = availability;
    this.publisher = publisher;
  }

  /** Compares the views' health with the availability and publishes what must change. */
  public synchronized void update() {
    StreamsHealth.Report report = this.health.report();
    boolean serving = report.condition() == StreamsHealth.Condition.SERVING;
    ReadinessState readiness = this.availability.getReadinessState();
    if (!serving && readiness == ReadinessState.ACCEPTING_TRAFFIC) {
      this.refusedTraffic = true;
      AvailabilityChangeEvent.publish(this.publisher, this, ReadinessState.REFUSING_TRAFFIC);
    } else if (serving && this.refusedTraffic && readiness == ReadinessState.REFUSING_TRAFFIC) {
      this.refusedTraffic = false;
      AvailabilityChangeEvent.publish(this.publisher, this, ReadinessState.ACCEPTING_TRAFFIC);
    }
    boolean failed = failed(report.state());
    LivenessState liveness = this.availability.getLivenessState();
    if (failed && liveness == LivenessState.CORRECT) {
      this.brokeLiveness = true;
      AvailabilityChangeEvent.publish(this.publisher, this, LivenessState.BROKEN);
    } else if (!failed && this.brokeLiveness && liveness == LivenessState.BROKEN) {
      this.brokeLiveness = false;
      AvailabilityChangeEvent.publish(this.publisher, this, LivenessState.CORRECT);
    }
  }

  @Override
  void tick() {
    try {
      update();
    } catch (RuntimeException ex) {
      logger.warn("Could not update the application's availability from Kafka Streams", ex);
    }
  }

  private boolean failed(KafkaStreams.@Nullable State state) {
    return state == KafkaStreams.State.ERROR
        || state == KafkaStreams.State.PENDING_ERROR
        || (state == KafkaStreams.State.NOT_RUNNING && this.shouldRun.getAsBoolean());
  }

  /**
   * Another component changed the availability and now owns that state, unless a later change
   * already replaced it (Boot's accepting traffic arriving after this updater refused it), which
   * would leave traffic refused for good.
   */
  @Override
  public void onApplicationEvent(AvailabilityChangeEvent<?> event) {
    if (event.getSource() == this) {
      return;
    }
    synchronized (this) {
      if (event.getState() instanceof ReadinessState readiness
          && readiness == this.availability.getReadinessState()) {
        this.refusedTraffic = false;
      } else if (event.getState() instanceof LivenessState liveness
          && liveness == this.availability.getLivenessState()) {
        this.brokeLiveness = false;
      }
      runSoon();
    }
  }
}
