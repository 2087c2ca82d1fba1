package dev.matview.peer.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The idle connections kept to other instances: how long and how many. */
class PeerConnectionsTests {

  private static final Duration MAX_IDLE = Duration.ofSeconds(15);

  private final PeerConnections connections = new PeerConnections(null, MAX_IDLE, MAX_IDLE, 2);

  private final ScriptedServer server;

  PeerConnectionsTests() throws IOException {
    this.server =
        new ScriptedServer(
            new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), (request) -> null, false);
  }

  @AfterEach
  void close() throws IOException {
    this.connections.close();
    this.server.close();
  }

  @Test
  void givesBackTheConnectionReleasedLastWhileItHasNotBeenIdleForTooLong() throws IOException {
    PeerConnection first = connect();
    PeerConnection second = connect();
    this.connections.release(authority(), first);
    this.connections.release(authority(), second);
    long now = System.nanoTime();
    assertThat(this.connections.idle(authority(), now)).isSameAs(second);
    assertThat(this.connections.idle(authority(), now)).isSameAs(first);
    assertThat(this.connections.idle(authority(), now)).isNull();
  }

  @Test
  void closesAConnectionIdleForLongerThanItsLimitInsteadOfGivingItBack() throws IOException {
    PeerConnection connection = connect();
    this.connections.release(authority(), connection);
    long later = System.nanoTime() + MAX_IDLE.plusSeconds(1).toNanos();
    assertThat(this.connections.idle(authority(), later)).isNull();
    assertThat(connection.isClosed()).isTrue();
  }

  @Test
  void keepsNoMoreIdleConnectionsPerInstanceThanItsLimit() throws IOException {
    PeerConnection[] opened = {connect(), connect(), connect()};
    for (PeerConnection connection : opened) {
      this.connections.release(authority(), connection);
    }
    assertThat(opened[2].isClosed()).as("the one beyond the limit of 2").isTrue();
    assertThat(opened[0].isClosed()).isFalse();
    assertThat(opened[1].isClosed()).isFalse();
  }

  @Test
  void closesWhatIsReleasedAfterItClosed() throws IOException {
    PeerConnection connection = connect();
    this.connections.close();
    this.connections.release(authority(), connection);
    assertThat(connection.isClosed()).isTrue();
    assertThat(this.connections.idle(authority(), System.nanoTime())).isNull();
  }

  private PeerConnection connect() throws IOException {
    return this.connections.connect(
        "127.0.0.1", this.server.port(), System.nanoTime() + MAX_IDLE.toNanos());
  }

  private String authority() {
    return "127.0.0.1:" + this.server.port();
  }
}
