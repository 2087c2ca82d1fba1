package dev.matview.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClientException;

/**
 * Follows one key's change stream on a daemon thread of its own: reads its Server-Sent Events,
 * hands each change on, and reconnects with the last event's id after {@code reconnect}, {@code
 * dropped}, a lost connection, or a 503's or 429's {@code Retry-After}; a 400 or 404 ends it.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class ChangeFollower<K, V> implements ChangeSubscription {

  /** How long it waits before it reconnects after a lost connection. */
  private static final Duration RECONNECT_DELAY = Duration.ofSeconds(1);

  private final String view;

  private final String path;

  private final String keyText;

  private final ViewExchange exchange;

  private final ChangeReader<K, V> reader;

  private final Consumer<Change<K, V>> listener;

  private volatile @Nullable String lastEventId;

  private volatile boolean open = true;

  private volatile @Nullable MatviewClientException failure;

  private volatile @Nullable InputStream body;

  ChangeFollower(
      String view,
      String path,
      String keyText,
      ViewExchange exchange,
      ChangeReader<K, V> reader,
      Consumer<Change<K, V>> listener) {
    this.view = view;
    this.path = path;
    this.keyText = keyText;
    this.exchange = exchange;
    this.reader = reader;
    this.listener = listener;
  }

  /** Starts following on a thread of its own. */
  ChangeFollower<K, V> start() {
    Thread thread = new Thread(this::follow, "matview-changes-" + this.view);
    thread.setDaemon(true);
    thread.start();
    return this;
  }

  private void follow() {
    while (this.open) {
      Duration wait;
      try {
        wait = connect();
      } catch (RestClientException | IOException ex) {
        wait = RECONNECT_DELAY;
      } catch (MatviewClientException ex) {
        this.failure = ex;
        this.open = false;
        return;
      }
      if (this.open && !wait.isZero()) {
        try {
          TimeUnit.NANOSECONDS.sleep(wait.toNanos());
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          this.open = false;
        }
      }
    }
  }

  /** One connection: how long to wait before the next one. */
  private Duration connect() throws IOException {
    String last = this.lastEventId;
    Duration wait =
        this.exchange
            .restClient()
            .get()
            .uri(this.path, this.view, this.keyText)
            .accept(MediaType.TEXT_EVENT_STREAM, MediaType.APPLICATION_PROBLEM_JSON)
            .headers(
                (headers) -> {
                  if (last != null) {
                    headers.set("Last-Event-ID", last);
                  }
                })
            .exchangeForRequiredValue(
                (request, response) -> {
                  int status = response.getStatusCode().value();
                  if (status == 503 || status == 429) {
                    return RetryAfter.of(
                        response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER), Instant.now());
                  }
                  if (status != 200) {
                    throw this.exchange
                        .problems()
                        .refusal(
                            this.view,
                            new RawAnswer(
                                status,
                                HttpHeaders.copyOf(response.getHeaders()),
                                response.getBody().readAllBytes()));
                  }
                  return read(response.getBody());
                },
                true);
    return wait;
  }

  /** Reads events until the stream says to reconnect or ends: how long to wait then. */
  private Duration read(InputStream stream) throws IOException {
    this.body = stream;
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
      String event = null;
      String id = null;
      StringBuilder data = new StringBuilder();
      String line;
      while (this.open && (line = lines.readLine()) != null) {
        if (line.isEmpty()) {
          if (event != null) {
            if (event.equals("reconnect") || event.equals("dropped")) {
              return Duration.ZERO;
            }
            Change<K, V> change = this.reader.change(event, data.toString(), id);
            if (change != null) {
              this.listener.accept(change);
              if (id != null) {
                this.lastEventId = id;
              }
            }
          }
          event = null;
          id = null;
          data.setLength(0);
        } else if (line.startsWith("event:")) {
          event = line.substring(6).strip();
        } else if (line.startsWith("id:")) {
          id = line.substring(3).strip();
        } else if (line.startsWith("data:")) {
          data.append(line.substring(5));
        }
      }
    } finally {
      this.body = null;
    }
    return RECONNECT_DELAY;
  }

  @Override
  public Optional<String> lastEventId() {
    return Optional.ofNullable(this.lastEventId);
  }

  @Override
  public boolean isOpen() {
    return this.open;
  }

  @Override
  public Optional<MatviewClientException> failure() {
    return Optional.ofNullable(this.failure);
  }

  @Override
  public void close() {
    this.open = false;
    InputStream current = this.body;
    if (current != null) {
      try {
        current.close();
      } catch (IOException ex) {
        // the stream is being closed anyway
      }
    }
  }
}
