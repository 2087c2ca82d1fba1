package dev.matview.autoconfigure;

import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;
import org.jspecify.annotations.Nullable;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;
import org.springframework.util.StringUtils;

/** Static membership (a stable group.instance.id), standby replicas, leaving the group on close. */
final class MembershipConfigurer implements StreamsBuilderFactoryBeanConfigurer {

  private static final String STANDBY_PROPERTY = "matview.standby-replicas";

  private static final String INSTANCE_ID_PROPERTY = "matview.instance-id";

  private static final List<String> INSTANCE_ID_KEYS =
      List.of(
          ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
          StreamsConfig.CONSUMER_PREFIX + ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
          StreamsConfig.MAIN_CONSUMER_PREFIX + ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);

  private final MatviewProperties properties;

  MembershipConfigurer(MatviewProperties properties) {
    this.properties = properties;
    validate(properties);
  }

  @Override
  public void configure(StreamsBuilderFactoryBean factoryBean) {
    factoryBean.setLeaveGroupOnClose(this.properties.isLeaveGroupOnClose());
    Properties streams = factoryBean.getStreamsConfiguration();
    if (streams == null) {
      return;
    }
    applyStandbyReplicas(streams);
    applyInstanceId(streams);
    factoryBean.setStreamsConfiguration(streams);
  }

  @Override
  public int getOrder() {
    return 0;
  }

  private void applyStandbyReplicas(Properties streams) {
    Integer standbyReplicas = this.properties.getStandbyReplicas();
    if (standbyReplicas == null) {
      return;
    }
    Object configured = streams.get(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG);
    if (configured != null
        && !String.valueOf(configured).trim().equals(standbyReplicas.toString())) {
      throw new InvalidMatviewPropertyException(
          STANDBY_PROPERTY,
          standbyReplicas,
          "it differs from spring.kafka.streams.properties.num.standby.replicas, which is "
              + configured,
          "Set only one of "
              + STANDBY_PROPERTY
              + " and spring.kafka.streams.properties.num.standby.replicas");
    }
    streams.setProperty(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, standbyReplicas.toString());
  }

  private void applyInstanceId(Properties streams) {
    String explicit = this.properties.getInstanceId();
    String configured = configuredInstanceId(streams);
    boolean streamsProtocol =
        "streams".equalsIgnoreCase(streams.getProperty(StreamsConfig.GROUP_PROTOCOL_CONFIG, ""));
    if (StringUtils.hasText(explicit)) {
      if (configured != null && !configured.equals(explicit)) {
        throw new InvalidMatviewPropertyException(
            INSTANCE_ID_PROPERTY,
            explicit,
            "it differs from spring.kafka.streams.properties.group.instance.id, which is "
                + configured,
            "Set only one of "
                + INSTANCE_ID_PROPERTY
                + " and spring.kafka.streams.properties.group.instance.id");
      }
      if (streamsProtocol) {
        throw new InvalidMatviewPropertyException(
            INSTANCE_ID_PROPERTY,
            explicit,
            "Kafka Streams' streams rebalance protocol (group.protocol=streams) does not support"
                + " static membership",
            "Remove "
                + INSTANCE_ID_PROPERTY
                + ", or spring.kafka.streams.properties.group.protocol=streams");
      }
      streams.setProperty(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, explicit);
    } else if (configured == null && !streamsProtocol) {
      streams.setProperty(
          ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
          InstanceId.derive(host(streams), StateDir.of(streams)));
    }
  }

  private static @Nullable String configuredInstanceId(Properties streams) {
    for (String key : INSTANCE_ID_KEYS) {
      Object value = streams.get(key);
      if (value != null && StringUtils.hasText(value.toString())) {
        return value.toString();
      }
    }
    return null;
  }

  private String host(Properties streams) {
    String applicationServer = streams.getProperty(StreamsConfig.APPLICATION_SERVER_CONFIG);
    if (StringUtils.hasText(applicationServer)) {
      return HostInfo.buildFromEndpoint(applicationServer).host();
    }
    return AdvertisedHost.resolve(this.properties.getAdvertisedHost());
  }

  private static void validate(MatviewProperties properties) {
    Integer standbyReplicas = properties.getStandbyReplicas();
    if (standbyReplicas != null && standbyReplicas < 0) {
      throw InvalidMatviewPropertyException.negative(STANDBY_PROPERTY, standbyReplicas, "1");
    }
    String instanceId = properties.getInstanceId();
    if (StringUtils.hasText(instanceId) && !InstanceId.isLegal(instanceId)) {
      throw new InvalidMatviewPropertyException(
          INSTANCE_ID_PROPERTY,
          instanceId,
          "it may hold only letters, digits, '.', '_' and '-', at most "
              + InstanceId.MAX_LENGTH
              + " of them",
          "Set " + INSTANCE_ID_PROPERTY + " to such a name, for example orders-1");
    }
  }
}
