package dev.matview.cluster;

import org.springframework.boot.builder.SpringApplicationBuilder;

/**
 * The owner's JVM of {@link RelayedStreamOwnerLossIntegrationTests}: its application with the
 * settings it is given on the command line.
 */
public final class RelayOwnerMain {

  private RelayOwnerMain() {}

  /** Runs the application until the test kills this JVM. */
  public static void main(String[] args) {
    new SpringApplicationBuilder(RelayedStreamOwnerLossIntegrationTests.RelayApp.class).run(args);
  }
}
