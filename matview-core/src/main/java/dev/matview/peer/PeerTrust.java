package dev.matview.peer;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Holds the secret this instance shares with the other instances of its application, once it is
 * known: at once when it is configured, else when the instances have agreed on one through Kafka
 * before Kafka Streams starts. Hands out the keys derived from it.
 */
public final class PeerTrust {

  private volatile @Nullable PeerSecret secret;

  private final Map<String, HmacKey> keys = new ConcurrentHashMap<>();

  private PeerTrust(@Nullable PeerSecret secret) {
    this.secret = secret;
  }

  /** Trust in instances that share {@code secret}. */
  public static PeerTrust of(PeerSecret secret) {
    return new PeerTrust(secret);
  }

  /** Trust whose secret is not known yet; {@link #establish} gives it. */
  public static PeerTrust pending() {
    return new PeerTrust(null);
  }

  /** Uses {@code secret} from now on. */
  public void establish(PeerSecret secret) {
    this.keys.clear();
    this.secret = secret;
  }

  /** Whether the secret is known. */
  public boolean isEstablished() {
    return this.secret != null;
  }

  /** The key for {@code purpose}, or {@code null} while the secret is not known. */
  public @Nullable HmacKey key(String purpose) {
    PeerSecret known = this.secret;
    return known != null ? this.keys.computeIfAbsent(purpose, known::key) : null;
  }

  @Override
  public String toString() {
    return "PeerTrust[" + (isEstablished() ? "established" : "pending") + "]";
  }
}
