package dev.matview.client.autoconfigure;

import dev.matview.client.Consistency;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Configuration properties of the client of another service's Matview views. */
@ConfigurationProperties("matview.client")
public class MatviewClientProperties {

  /**
   * URL of the service whose views are called, such as http://orders-service:8080; a client is
   * auto-configured only when it is set.
   */
  private @Nullable String baseUrl;

  /** Base path of the service's views (its matview.web.base-path). */
  private String basePath = "/views";

  /** How long one call may take, waits after Retry-After included, before it fails. */
  private Duration deadline = Duration.ofSeconds(10);

  /**
   * What calls ask of the answering replica's position: monotonic (never older than the client's
   * last answer of the view) or none.
   */
  private Consistency consistency = Consistency.MONOTONIC;

  /** Items a scan asks for per page. */
  private int pageSize = 100;

  public @Nullable String getBaseUrl() {
    return this.baseUrl;
  }

  public void setBaseUrl(@Nullable String baseUrl) {
    this.baseUrl = baseUrl;
  }

  public String getBasePath() {
    return this.basePath;
  }

  public void setBasePath(String basePath) {
    this.basePath = basePath;
  }

  public Duration getDeadline() {
    return this.deadline;
  }

  public void setDeadline(Duration deadline) {
    this.deadline = deadline;
  }

  public Consistency getConsistency() {
    return this.consistency;
  }

  public void setConsistency(Consistency consistency) {
    this.consistency = consistency;
  }

  public int getPageSize() {
    return this.pageSize;
  }

  public void setPageSize(int pageSize) {
    this.pageSize = pageSize;
  }
}
