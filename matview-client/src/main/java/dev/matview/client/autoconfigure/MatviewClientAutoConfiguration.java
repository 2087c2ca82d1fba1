package dev.matview.client.autoconfigure;

import dev.matview.client.MatviewClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@link MatviewClient} of the service at {@code matview.client.base-url}, built on the
 * application's {@code RestClient.Builder} and {@code JsonMapper} where it has them, else on the
 * JDK's HTTP client and a mapper of Jackson's defaults.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration",
      "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration"
    })
@ConditionalOnClass(RestClient.class)
@ConditionalOnProperty(prefix = "matview.client", name = "base-url")
@EnableConfigurationProperties(MatviewClientProperties.class)
public final class MatviewClientAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  MatviewClient matviewClient(
      MatviewClientProperties properties,
      ObjectProvider<RestClient.Builder> restClientBuilder,
      ObjectProvider<JsonMapper> jsonMapper) {
    String baseUrl = properties.getBaseUrl();
    if (baseUrl == null || baseUrl.isBlank()) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.client.base-url", baseUrl, "must name the service, like http://orders:8080");
    }
    if (properties.getDeadline().isNegative() || properties.getDeadline().isZero()) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.client.deadline", properties.getDeadline(), "must be positive");
    }
    if (properties.getPageSize() < 1) {
      throw new InvalidConfigurationPropertyValueException(
          "matview.client.page-size", properties.getPageSize(), "must be positive");
    }
    RestClient restClient =
        restClientBuilder
            .getIfAvailable(
                () -> RestClient.builder().requestFactory(new JdkClientHttpRequestFactory()))
            .clone()
            .baseUrl(baseUrl)
            .build();
    return MatviewClient.builder(restClient)
        .jsonMapper(jsonMapper.getIfAvailable(() -> JsonMapper.builder().build()))
        .basePath(properties.getBasePath())
        .deadline(properties.getDeadline())
        .consistency(properties.getConsistency())
        .pageSize(properties.getPageSize())
        .build();
  }
}
