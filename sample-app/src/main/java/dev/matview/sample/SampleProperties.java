package dev.matview.sample;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the sample app; its broker is Matview's development broker ({@code
 * matview.dev-broker.*}).
 *
 * @param generator the random order generator
 */
@ConfigurationProperties("sample")
public record SampleProperties(@DefaultValue Generator generator) {

  /**
   * The random order generator.
   *
   * @param enabled whether random orders are published
   * @param rate orders per second
   * @param customers distinct customer ids, customer-1 to customer-N
   */
  public record Generator(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("50") int rate,
      @DefaultValue("1000") int customers) {}
}
