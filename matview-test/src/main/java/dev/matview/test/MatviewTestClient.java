package dev.matview.test;

import dev.matview.topology.ResolvedView;
import dev.matview.topology.ViewRegistry;
import java.time.Duration;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.ObjectMapper;

/**
 * Calls the application of a {@link MatviewIntegrationTest} over HTTP on its web server's real
 * port: its views with their own types through {@link #view}, anything else through {@link
 * #restClient()}. The slice offers one as a bean; it finds the port once the server has started.
 *
 * <pre>{@code
 * @Autowired MatviewTestClient client;
 *
 * ViewAnswer<Optional<Long>> answer =
 *     client.view("orders-per-customer", String.class, Long.class).get("alice");
 * assertThat(answer.body()).contains(3L);
 * assertThat(answer.replica()).isEqualTo("active");
 * }</pre>
 */
public final class MatviewTestClient {

  /** How long a request may wait for the application's answer. */
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

  private final AppAddress address;

  private final ViewRegistry registry;

  private final RestClient http;

  private final ViewCalls calls;

  MatviewTestClient(AppAddress address, ViewRegistry registry, ObjectMapper mapper) {
    this.address = address;
    this.registry = registry;
    JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory();
    requests.setReadTimeout(READ_TIMEOUT);
    this.http = RestClient.builder().requestFactory(requests).build();
    this.calls = new ViewCalls(this.http, address, mapper);
  }

  /**
   * The view named {@code name}, whose keys are of {@code keyType} and values of {@code valueType}.
   *
   * @throws IllegalArgumentException when there is no such view, or it has other types
   */
  public <K, A> HttpView<K, A> view(String name, Class<K> keyType, Class<A> valueType) {
    ResolvedView<?, ?, ?> view = ViewChecks.named(this.registry.all(), name);
    ViewChecks.requireKeyType(view, keyType, "pass as its key type");
    ViewChecks.requireValueType(view, valueType, "pass as its value type");
    return new HttpView<>(this.calls, view, keyType, valueType, RequestOptions.NONE);
  }

  /**
   * A {@link RestClient} whose relative URIs go to the application, such as {@code
   * restClient().post().uri("/orders")}, under its context path.
   *
   * @throws IllegalStateException when the application has no web server listening
   */
  public RestClient restClient() {
    return this.http.mutate().baseUrl(this.address.root()).build();
  }

  /**
   * The application's root URL, such as {@code http://localhost:54321}, with its context path.
   *
   * @throws IllegalStateException when the application has no web server listening
   */
  public String rootUrl() {
    return this.address.root();
  }
}
