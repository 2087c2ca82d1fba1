package dev.matview.changes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.matview.peer.TestPeers;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.peer.PeerClient;
import dev.matview.query.routing.CallerContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.apache.kafka.streams.state.HostInfo;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bound on change streams relayed from one owner: each holds a connection to it, so that past
 * the bound a stream is refused at once with a reason, instead of waiting for a connection that
 * does not come free, and the bound comes free again as relayed streams end.
 */
class UpstreamChangesTests {

  private final PeerClient peers =
      new PeerClient("/views", Duration.ofSeconds(5), null, TestPeers.requests(), false);

  /** An owner that takes connections and never answers, so that each relayed stream stays open. */
  private final ServerSocket silentOwner;

  UpstreamChangesTests() throws IOException {
    this.silentOwner = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  }

  @AfterEach
  void close() throws IOException {
    this.peers.close();
    this.silentOwner.close();
  }

  @Test
  void refusesAStreamPastTheOwnersBoundWithAReasonAndTakesOneAgainOnceAnotherEnds() {
    UpstreamChanges upstream = new UpstreamChanges(this.peers, Duration.ofSeconds(30), 2);
    PartitionOwner owner =
        new PartitionOwner(0, new HostInfo("127.0.0.1", this.silentOwner.getLocalPort()));
    Sink first = relay(upstream, owner, "k-1");
    relay(upstream, owner, "k-2");
    assertThat(upstream.relayed()).isEqualTo(2);

    assertThatExceptionOfType(TooManyStreamsException.class)
        .isThrownBy(() -> relay(upstream, owner, "k-3"))
        .withMessageContaining("relays 2 change streams from 127.0.0.1:")
        .withMessageContaining("ask 127.0.0.1:");
    assertThat(upstream.relayed()).isEqualTo(2);

    first.gone.run();
    Awaitility.await("the first relayed stream ended")
        .atMost(Duration.ofSeconds(10))
        .until(() -> upstream.relayed() == 1);
    relay(upstream, owner, "k-4");
    assertThat(upstream.relayed()).isEqualTo(2);
  }

  private Sink relay(UpstreamChanges upstream, PartitionOwner owner, String key) {
    Sink sink = new Sink();
    upstream.relay("counts", key, owner, null, CallerContext.direct(), sink, () -> {});
    return sink;
  }

  /** A client that reads whatever comes, and can be made to go away. */
  private static final class Sink implements ChangeSink {

    private Runnable gone = () -> {};

    @Override
    public void send(ChangeEvent event) {}

    @Override
    public void heartbeat() {}

    @Override
    public void close() {}

    @Override
    public void whenGone(Runnable onGone) {
      this.gone = onGone;
    }
  }
}
