package dev.matview.deadletter;

import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.producer.Producer;
import org.jspecify.annotations.Nullable;

/**
 * Writes dead letters to the dead-letter topic with one producer shared by all stream threads,
 * created on the first dead letter; each write waits for the broker's acknowledgement, so a record
 * is never dropped without its dead letter.
 */
public final class DeadLetterPublisher implements AutoCloseable {

  private static final Log logger = LogFactory.getLog(DeadLetterPublisher.class);

  private final String topic;

  private final Supplier<Producer<byte[], byte[]>> producerFactory;

  private final DeadLetterListener listener;

  private final DeadLetterSizer sizer;

  private @Nullable Producer<byte[], byte[]> producer;

  private boolean closed;

  /**
   * A publisher to {@code topic} that creates its producer with {@code producerFactory} and writes
   * no record larger than {@code maxBytes}: one that would be larger is cut down to fit, and says
   * so in the header {@link DeadLetterHeaders#TRUNCATED}.
   */
  public DeadLetterPublisher(
      String topic,
      Supplier<Producer<byte[], byte[]>> producerFactory,
      DeadLetterListener listener,
      int maxBytes) {
    this.topic = topic;
    this.producerFactory = producerFactory;
    this.listener = listener;
    this.sizer = new DeadLetterSizer(maxBytes);
  }

  /** The largest dead letter this publisher writes, in bytes. */
  public int maxBytes() {
    return this.sizer.maxBytes();
  }

  /** The dead-letter topic. */
  public String topic() {
    return this.topic;
  }

  /**
   * Writes {@code letter} and waits until the broker has it.
   *
   * @return whether the dead letter was written; when not, the failure is logged
   */
  public boolean publish(DeadLetter letter) {
    try {
      producer().send(this.sizer.fit(letter.toRecord(this.topic))).get();
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      logFailure(letter, ex);
      return false;
    } catch (ExecutionException | RuntimeException ex) {
      logFailure(letter, (ex.getCause() != null) ? ex.getCause() : ex);
      return false;
    }
    if (logger.isWarnEnabled()) {
      logger.warn(
          describe(letter)
              + "; sent it to dead-letter topic '"
              + this.topic
              + "': "
              + letter.cause());
    }
    this.listener.published(letter);
    return true;
  }

  /** Closes the producer, if one was created; dead letters published later fail. */
  @Override
  public synchronized void close() {
    this.closed = true;
    if (this.producer != null) {
      this.producer.close();
      this.producer = null;
    }
  }

  private synchronized Producer<byte[], byte[]> producer() {
    if (this.closed) {
      throw new IllegalStateException("The dead-letter publisher is closed");
    }
    Producer<byte[], byte[]> producer = this.producer;
    if (producer == null) {
      producer = this.producerFactory.get();
      this.producer = producer;
    }
    return producer;
  }

  private void logFailure(DeadLetter letter, Throwable failure) {
    logger.error(
        describe(letter)
            + "; writing it to dead-letter topic '"
            + this.topic
            + "' failed, so processing stops: "
            + failure,
        letter.exception());
  }

  private static String describe(DeadLetter letter) {
    String who =
        (letter.view() != null)
            ? "View '" + letter.view() + "'"
            : "Processor '" + letter.processor() + "'";
    return who
        + " could not use record "
        + letter.position()
        + " because "
        + letter.reason().description();
  }
}
