package dev.matview.startup;

import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;

/**
 * Stops start-up with what to do on a Spring Boot other than 4.x, and warns on a 4.x or a Kafka
 * ({@link KafkaVersionCheck}) outside the lines Matview is tested on.
 *
 * <p>On Spring Boot 3 start-up would fail later, on a class Boot 4 moved, without saying why; this
 * check runs as soon as logging is set up, as an application listener in {@code
 * META-INF/spring.factories}, which Boot 3 and 4 load alike, unlike an environment post processor,
 * whose interface Boot 4 moved.
 */
public final class SpringBootVersionCheck
    implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {

  /** The Spring Boot versions Matview is built for and tested on (docs/support.md). */
  static final String SUPPORTED = "4.0.x or 4.1.x";

  private static final int MAJOR = 4;

  /** The last minor version of the tested lines; every one from 0 to it is tested. */
  private static final int LAST_TESTED_MINOR = 1;

  /** Right after Spring Boot's logging listener, which sets logging up on the same event. */
  private static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 21;

  private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)");

  private static final Log logger = LogFactory.getLog(SpringBootVersionCheck.class);

  private final Supplier<@Nullable String> version;

  private final Supplier<@Nullable String> kafkaVersion;

  /** A check of the Spring Boot and Kafka versions on the class path. */
  public SpringBootVersionCheck() {
    this(SpringBootVersion::getVersion, KafkaVersionCheck::onClassPath);
  }

  /** A check of the Spring Boot version that {@code version} gives, and the Kafka one. */
  SpringBootVersionCheck(
      Supplier<@Nullable String> version, Supplier<@Nullable String> kafkaVersion) {
    this.version = version;
    this.kafkaVersion = kafkaVersion;
  }

  @Override
  public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
    check(this.version.get());
    KafkaVersionCheck.check(this.kafkaVersion.get());
  }

  @Override
  public int getOrder() {
    return ORDER;
  }

  /** Checks {@code version}, refusing one that is not a 4.x; one that cannot be read passes. */
  static void check(@Nullable String version) {
    if (version == null) {
      return;
    }
    Matcher matcher = VERSION.matcher(version);
    if (!matcher.find()) {
      return;
    }
    int major = Integer.parseInt(matcher.group(1));
    int minor = Integer.parseInt(matcher.group(2));
    if (major != MAJOR) {
      throw new UnsupportedSpringBootException(
          version,
          "Matview needs Spring Boot "
              + SUPPORTED
              + ", but this application runs on Spring Boot "
              + version
              + ". Matview and the Spring Boot "
              + MAJOR
              + " modules it brings use classes that Spring Boot "
              + version
              + " does not have, so start-up would fail later on a missing class, such as"
              + " org.springframework.boot.thread.Threading.",
          "Build the application on Spring Boot "
              + SUPPORTED
              + ": set the version of spring-boot-starter-parent (or of the spring-boot-dependencies"
              + " BOM you import, or of the Spring Boot Gradle plugin) to a "
              + SUPPORTED
              + " release.");
    }
    if (minor > LAST_TESTED_MINOR && logger.isWarnEnabled()) {
      logger.warn(
          "Matview is built and tested for Spring Boot "
              + SUPPORTED
              + ", and this application runs on Spring Boot "
              + version
              + "; if it fails to start or to serve the views, use Spring Boot "
              + SUPPORTED
              + ".");
    }
  }
}
