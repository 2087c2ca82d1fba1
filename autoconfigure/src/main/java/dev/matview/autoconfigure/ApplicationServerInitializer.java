package dev.matview.autoconfigure;

import dev.matview.query.routing.LocalInstance;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.util.StringUtils;

/** Sets {@code application.server} to the advertised host and the web server's actual port. */
final class ApplicationServerInitializer implements ApplicationListener<WebServerInitializedEvent> {

  private final StreamsBuilderFactoryBean factoryBean;

  private final LocalInstance localInstance;

  private final @Nullable String advertisedHost;

  ApplicationServerInitializer(
      StreamsBuilderFactoryBean factoryBean,
      LocalInstance localInstance,
      @Nullable String advertisedHost) {
    this.factoryBean = factoryBean;
    this.localInstance = localInstance;
    this.advertisedHost = advertisedHost;
  }

  @Override
  public void onApplicationEvent(WebServerInitializedEvent event) {
    if (event.getApplicationContext().getServerNamespace() != null) {
      return;
    }
    Properties streams = this.factoryBean.getStreamsConfiguration();
    if (streams == null) {
      return;
    }
    String configured = streams.getProperty(StreamsConfig.APPLICATION_SERVER_CONFIG);
    HostInfo hostInfo =
        StringUtils.hasText(configured)
            ? HostInfo.buildFromEndpoint(configured)
            : new HostInfo(host(), event.getWebServer().getPort());
    if (!StringUtils.hasText(configured)) {
      if (this.factoryBean.isRunning()) {
        throw new IllegalStateException(
            "Kafka Streams started before the web server, so application.server could not be set;"
                + " do not start the StreamsBuilderFactoryBean before the web server");
      }
      streams.setProperty(
          StreamsConfig.APPLICATION_SERVER_CONFIG, hostInfo.host() + ":" + hostInfo.port());
      this.factoryBean.setStreamsConfiguration(streams);
    }
    this.localInstance.setHostInfo(hostInfo);
  }

  private String host() {
    return AdvertisedHost.resolve(this.advertisedHost);
  }
}
