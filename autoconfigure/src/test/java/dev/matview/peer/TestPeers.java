package dev.matview.peer;

import java.time.Clock;
import java.time.Duration;

/** Peer trust for tests: one random secret per JVM, as instances that agreed on it would share. */
public final class TestPeers {

  private static final PeerTrust TRUST = PeerTrust.of(PeerSecret.of(PeerSecret.randomMaterial()));

  private TestPeers() {}

  /** Trust in the instances that share this JVM's secret. */
  public static PeerTrust trust() {
    return TRUST;
  }

  /** Requests signed with this JVM's secret, valid for 30 seconds. */
  public static PeerRequests requests() {
    return new PeerRequests(TRUST, Clock.systemUTC(), Duration.ofSeconds(30));
  }
}
