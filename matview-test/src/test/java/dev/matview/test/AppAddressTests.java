package dev.matview.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class AppAddressTests {

  @Test
  void isTheServersPortOnLocalhostUnderTheContextPath() {
    MockEnvironment environment =
        new MockEnvironment()
            .withProperty("local.server.port", "54321")
            .withProperty("server.servlet.context-path", "/shop/");
    AppAddress address = new AppAddress(environment, "/views");

    assertThat(address.root()).isEqualTo("http://localhost:54321/shop");
    assertThat(address.views()).isEqualTo("http://localhost:54321/shop/views");
  }

  @Test
  void saysSoWhenTheApplicationHasNoWebServerListening() {
    AppAddress address = new AppAddress(new MockEnvironment(), "/views");

    assertThatIllegalStateException()
        .isThrownBy(address::root)
        .withMessage(
            "The application has no web server listening: MatviewTestClient needs"
                + " @MatviewIntegrationTest's webEnvironment RANDOM_PORT (the default) or"
                + " DEFINED_PORT");
  }
}
