package dev.matview.changes;

import dev.matview.peer.PeerPath;
import dev.matview.peer.PeerRequests;
import dev.matview.query.answer.PartitionOwner;
import dev.matview.query.routing.CallerContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;

/**
 * Relays the change stream of a key whose partition another instance owns: asks that instance for
 * it, signed as a forwarded request, over the JDK's asynchronous client (no thread waits for a
 * relayed stream), and passes each event on as it came; when the owner's stream ends, or cannot be
 * opened, the relayed stream ends with an event that says to reconnect with the last id.
 */
public final class UpstreamChanges implements AutoCloseable {

  private final HttpClient client;

  private final String scheme;

  private final String basePath;

  private final PeerRequests requests;

  private final Set<Relay> relays = ConcurrentHashMap.newKeySet();

  /**
   * Relays from instances at {@code basePath}, over {@code https} when {@code sslContext} is given,
   * signing each request with {@code requests}.
   */
  public UpstreamChanges(
      String basePath,
      @Nullable SSLContext sslContext,
      PeerRequests requests,
      Duration connectTimeout) {
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(connectTimeout)
            .followRedirects(HttpClient.Redirect.NEVER);
    if (sslContext != null) {
      builder.sslContext(sslContext);
    }
    this.client = builder.build();
    this.scheme = (sslContext != null) ? "https" : "http";
    this.basePath = basePath;
    this.requests = requests;
  }

  /**
   * Opens {@code owner}'s stream of {@code rawKey} in {@code view} and passes its events to {@code
   * sink}; {@code onEnd} runs once it ends.
   */
  void relay(
      String view,
      String rawKey,
      PartitionOwner owner,
      @Nullable String lastEventId,
      CallerContext caller,
      ChangeSink sink,
      Runnable onEnd) {
    open(
        this.basePath + PeerPath.of(view, "keys", rawKey, "changes"),
        owner.host(),
        lastEventId,
        sink,
        onEnd);
  }

  /**
   * Opens the stream of the changes of {@code view}'s partitions that {@code host} owns, and passes
   * its events to {@code sink}, which it closes when that stream ends.
   */
  void relayView(String view, HostInfo host, ChangeSink sink) {
    open(this.basePath + PeerPath.of(view, "changes"), host, null, sink, () -> {});
  }

  private void open(
      String target, HostInfo host, @Nullable String lastEventId, ChangeSink sink, Runnable onEnd) {
    Map<String, String> signedHeaders = new LinkedHashMap<>(4);
    signedHeaders.put(PeerRequests.FORWARDED_HEADER, PeerRequests.FORWARDED);
    signedHeaders.put("Accept", "text/event-stream");
    if (lastEventId != null) {
      signedHeaders.put(PeerRequests.LAST_EVENT_ID_HEADER, lastEventId);
    }
    String signature = this.requests.sign("GET", target, null, signedHeaders);
    Relay[] self = new Relay[1];
    Relay relay =
        new Relay(
            sink,
            lastEventId,
            () -> {
              this.relays.remove(self[0]);
              onEnd.run();
            });
    self[0] = relay;
    this.relays.add(relay);
    if (signature == null) {
      relay.reconnect("this instance has not agreed on a secret with the others yet");
      return;
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create(this.scheme + "://" + host.host() + ":" + host.port() + target))
            .header(PeerRequests.FORWARDED_HEADER, PeerRequests.FORWARDED)
            .header(PeerRequests.SIGNATURE_HEADER, signature)
            .header("Accept", "text/event-stream")
            .GET();
    if (lastEventId != null) {
      request.header("Last-Event-ID", lastEventId);
    }
    sink.whenGone(relay::cancel);
    this.client
        .sendAsync(request.build(), (info) -> relay.body(info.statusCode()))
        .whenComplete(
            (response, failure) -> {
              if (failure != null) {
                relay.reconnect("the partition's owner could not be reached");
              }
            });
  }

  /** Ends every relayed stream, each with an event that says to reconnect. */
  @Override
  public void close() {
    for (Relay relay : this.relays) {
      relay.reconnect("this instance stops");
    }
  }

  /** One relayed stream: reads the owner's events line by line and passes each on. */
  private static final class Relay implements Flow.Subscriber<List<ByteBuffer>> {

    private final ChangeSink sink;

    private final Runnable onEnd;

    private final AtomicBoolean ended = new AtomicBoolean();

    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    private final StringBuilder data = new StringBuilder();

    private @Nullable String lastId;

    private @Nullable String event;

    private @Nullable String id;

    private volatile Flow.@Nullable Subscription subscription;

    Relay(ChangeSink sink, @Nullable String lastEventId, Runnable onEnd) {
      this.sink = sink;
      this.lastId = lastEventId;
      this.onEnd = onEnd;
    }

    HttpResponse.BodySubscriber<Void> body(int status) {
      if (status != 200) {
        reconnect("the partition's owner answered " + status);
        return HttpResponse.BodySubscribers.discarding();
      }
      return HttpResponse.BodySubscribers.fromSubscriber(this);
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      subscription.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      try {
        for (ByteBuffer buffer : buffers) {
          while (buffer.hasRemaining()) {
            byte b = buffer.get();
            if (b == '\n') {
              line(this.line.toString(StandardCharsets.UTF_8));
              this.line.reset();
            } else if (b != '\r') {
              this.line.write(b);
            }
          }
        }
      } catch (IOException ex) {
        cancel();
        return;
      }
      this.sink.whenReady(this::requestMore);
    }

    /** Asks the owner for more once the client has taken what was passed on. */
    private void requestMore() {
      Flow.Subscription current = this.subscription;
      if (current != null && !this.ended.get()) {
        current.request(1);
      }
    }

    private void line(String text) throws IOException {
      if (text.isEmpty()) {
        if (this.event != null) {
          ChangeEvent.Kind kind = kind(this.event);
          if (kind != null) {
            this.sink.send(new ChangeEvent(kind, this.data.toString(), this.id));
            if (this.id != null) {
              this.lastId = this.id;
            }
            if (kind.ends()) {
              end();
            }
          }
        }
        this.event = null;
        this.id = null;
        this.data.setLength(0);
      } else if (text.startsWith(":")) {
        this.sink.heartbeat();
      } else if (text.startsWith("event:")) {
        this.event = text.substring(6).strip();
      } else if (text.startsWith("id:")) {
        this.id = text.substring(3).strip();
      } else if (text.startsWith("data:")) {
        this.data.append(text.substring(5).strip());
      }
    }

    private static ChangeEvent.@Nullable Kind kind(String label) {
      for (ChangeEvent.Kind kind : ChangeEvent.Kind.values()) {
        if (kind.label().equals(label)) {
          return kind;
        }
      }
      return null;
    }

    @Override
    public void onError(Throwable failure) {
      reconnect("the partition's owner stopped streaming");
    }

    @Override
    public void onComplete() {
      reconnect("the partition's owner ended the stream");
    }

    /** Ends the relayed stream with an event that says to reconnect with the last id. */
    void reconnect(String why) {
      if (this.ended.get()) {
        return;
      }
      try {
        this.sink.send(ChangeEvent.ending(ChangeEvent.Kind.RECONNECT, why, this.lastId));
      } catch (IOException ex) {
        // the client went away as well
      }
      end();
    }

    void cancel() {
      Flow.Subscription current = this.subscription;
      if (current != null) {
        current.cancel();
      }
      end();
    }

    private void end() {
      if (this.ended.compareAndSet(false, true)) {
        this.onEnd.run();
        this.sink.close();
      }
    }
  }
}
