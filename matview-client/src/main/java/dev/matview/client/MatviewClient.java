package dev.matview.client;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * Calls the views of one Matview service: {@link #view(String, Class, Class)} hands out a typed
 * handle per view. The client keeps the position of each view's newest answer and sends it with the
 * view's next call ({@link Consistency#MONOTONIC}, the default), so one client's reads of a view
 * never go back in time.
 *
 * <pre>{@code
 * MatviewClient client = MatviewClient.create("http://orders-service:8080");
 * RemoteView<String, Long> orders = client.view("orders-per-customer", String.class, Long.class);
 * Optional<Long> count = orders.get("customer-1");
 * }</pre>
 *
 * <p>The {@code RestClient} is used as it was built (its base URL, request factory, timeouts,
 * interceptors); its URI templates must encode variables, as they do unless a {@code
 * UriBuilderFactory} of another encoding mode is set. Apache HttpClient 5, as Spring builds it,
 * asks a GET once more itself after a 503's or 429's {@code Retry-After}, whatever the deadline:
 * build it with {@code disableAutomaticRetries()} for the deadline to hold.
 */
public final class MatviewClient {

  /** How long {@link #create(String)}'s client waits for a connection. */
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /** How long {@link #create(String)}'s client waits for an answer to one request. */
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

  private final ViewExchange exchange;

  private final Positions positions;

  private final JsonMapper mapper;

  private final KeyFormat keys;

  private final String basePath;

  private final CallOptions defaults;

  private MatviewClient(Builder builder) {
    this.positions = new Positions();
    this.mapper = builder.mapper;
    this.exchange =
        new ViewExchange(builder.restClient, this.positions, new Problems(builder.mapper));
    this.keys = new KeyFormat(builder.mapper);
    this.basePath = builder.basePath;
    this.defaults = builder.defaults;
  }

  /**
   * A client of the service at {@code baseUrl} (such as {@code http://orders:8080}), with defaults,
   * over the JDK's HTTP client: it sends each request once, so that a 503 or 429 comes back to this
   * client, whose deadline decides whether to ask again.
   */
  public static MatviewClient create(String baseUrl) {
    Objects.requireNonNull(baseUrl, "baseUrl must not be null");
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .build();
    JdkClientHttpRequestFactory requestFactory = new JdkClientHttpRequestFactory(http);
    requestFactory.setReadTimeout(READ_TIMEOUT);
    return builder(RestClient.builder().baseUrl(baseUrl).requestFactory(requestFactory).build())
        .build();
  }

  /** A builder of a client that calls through {@code restClient}, built with the service's URL. */
  public static Builder builder(RestClient restClient) {
    return new Builder(restClient);
  }

  /**
   * A handle of the view {@code name}, whose keys are {@code keyType}s and values {@code
   * valueType}s.
   */
  public <K, V> RemoteView<K, V> view(String name, Class<K> keyType, Class<V> valueType) {
    Objects.requireNonNull(valueType, "valueType must not be null");
    return handle(name, keyType, this.mapper.constructType(valueType));
  }

  /**
   * A handle of the view {@code name} whose values are of a generic type, such as {@code new
   * ParameterizedTypeReference<Map<String, BigDecimal>>() {}}.
   */
  public <K, V> RemoteView<K, V> view(
      String name, Class<K> keyType, ParameterizedTypeReference<V> valueType) {
    Objects.requireNonNull(valueType, "valueType must not be null");
    return handle(name, keyType, this.mapper.constructType(valueType.getType()));
  }

  /**
   * The position of the newest answer of {@code view} this client received, which its next call
   * sends; empty before the first, or when the server sends none.
   */
  public Optional<String> position(String view) {
    return Optional.ofNullable(this.positions.get(view));
  }

  private <K, V> RemoteView<K, V> handle(String name, Class<K> keyType, JavaType valueType) {
    Objects.requireNonNull(name, "name must not be null");
    Objects.requireNonNull(keyType, "keyType must not be null");
    if (name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank");
    }
    AnswerReader<K, V> reader =
        new AnswerReader<>(name, this.mapper, this.mapper.constructType(keyType), valueType);
    return new RemoteView<>(
        new ViewCalls<>(name, this.basePath, this.exchange, this.keys, reader), this.defaults);
  }

  /** Builds a {@link MatviewClient}. */
  public static final class Builder {

    private final RestClient restClient;

    private JsonMapper mapper = JsonMapper.builder().build();

    private String basePath = "/views";

    private CallOptions defaults = CallOptions.defaults();

    private Builder(RestClient restClient) {
      this.restClient = Objects.requireNonNull(restClient, "restClient must not be null");
    }

    /**
     * The base path of the service's views ({@code matview.web.base-path}), {@code /views} by
     * default.
     */
    public Builder basePath(String basePath) {
      Objects.requireNonNull(basePath, "basePath must not be null");
      String trimmed = basePath.strip();
      while (trimmed.endsWith("/")) {
        trimmed = trimmed.substring(0, trimmed.length() - 1);
      }
      this.basePath = (trimmed.isEmpty() || trimmed.startsWith("/")) ? trimmed : "/" + trimmed;
      return this;
    }

    /** How long one call may take, retries after {@code Retry-After} included; 10 s by default. */
    public Builder deadline(Duration deadline) {
      this.defaults = this.defaults.withDeadline(deadline);
      return this;
    }

    /** What calls ask of the position, {@link Consistency#MONOTONIC} by default. */
    public Builder consistency(Consistency consistency) {
      this.defaults = this.defaults.withConsistency(consistency);
      return this;
    }

    /** How many items a scan asks for per page, 100 by default. */
    public Builder pageSize(int pageSize) {
      this.defaults = this.defaults.withPageSize(pageSize);
      return this;
    }

    /** The mapper that writes keys and reads keys and values, such as the application's. */
    public Builder jsonMapper(JsonMapper mapper) {
      this.mapper = Objects.requireNonNull(mapper, "mapper must not be null");
      return this;
    }

    /** The client. */
    public MatviewClient build() {
      return new MatviewClient(this);
    }
  }
}
