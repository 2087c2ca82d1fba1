package dev.matview.peer;

import dev.matview.view.StartupFailure;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Thrown at start-up when the instances cannot agree on their shared secret through Kafka; says
 * what went wrong and how to fix it.
 */
public class PeerSecretException extends RuntimeException implements StartupFailure {

  /** The property that gives the instances their secret without Kafka. */
  public static final String PROPERTY = "matview.peers.secret";

  private static final String SET_SECRET =
      "Set "
          + PROPERTY
          + " to one secret of at least 32 bytes on every instance of the application (for"
          + " example the output of 'openssl rand -base64 32'), so that the instances need not"
          + " agree on one through Kafka";

  private final String description;

  private final String action;

  private PeerSecretException(String description, String action, @Nullable Throwable cause) {
    super(description + System.lineSeparator() + action, cause);
    this.description = description;
    this.action = action;
  }

  /** The broker refused an operation on {@code topic}, such as for want of an ACL. */
  static PeerSecretException refused(String topic, String operation, Throwable cause) {
    return new PeerSecretException(
        "Matview could not agree on the secret its instances share through the topic '"
            + topic
            + "': the broker refused to "
            + operation
            + " it ("
            + cause.getClass().getSimpleName()
            + ": "
            + cause.getMessage()
            + ").",
        SET_SECRET
            + ", or allow this application to describe, create, read and write the topic '"
            + topic
            + "'.",
        cause);
  }

  /** The broker did not answer within {@code timeout}. */
  static PeerSecretException unreachable(
      String topic, String bootstrapServers, Duration timeout, @Nullable Throwable cause) {
    return new PeerSecretException(
        "Matview could not agree on the secret its instances share through the topic '"
            + topic
            + "' on "
            + bootstrapServers
            + " within "
            + timeout.toMillis()
            + " ms.",
        "Check that Kafka is reachable and raise matview.peers.agreement-timeout if it is slow, or "
            + Character.toLowerCase(SET_SECRET.charAt(0))
            + SET_SECRET.substring(1)
            + ".",
        cause);
  }

  /** The broker failed otherwise. */
  static PeerSecretException failed(String topic, Throwable cause) {
    return new PeerSecretException(
        "Matview could not agree on the secret its instances share through the topic '"
            + topic
            + "': "
            + cause.getClass().getSimpleName()
            + ": "
            + cause.getMessage(),
        SET_SECRET + ".",
        cause);
  }

  /** What went wrong. */
  @Override
  public String getDescription() {
    return this.description;
  }

  /** How to fix it. */
  @Override
  public String getAction() {
    return this.action;
  }
}
