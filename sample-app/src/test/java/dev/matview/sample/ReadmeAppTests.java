package dev.matview.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.matview.broker.KraftBroker;
import dev.matview.processes.http.HttpProbe;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * Follows the README's "Using the starter in your own app" word for word, so that it cannot drift
 * from the code: its dependency names this build's starter, and its view class, topic bean and
 * {@code application.yml}, compiled as they stand into a new application that runs against an
 * in-process broker, answer the lookup the README promises.
 */
class ReadmeAppTests {

  private static final Path README = Path.of("..", "README.md");

  private static final String SECTION = "## Using the starter in your own app";

  @TempDir Path dir;

  @Test
  void theDependencyItShowsIsThisBuildsStarter() throws IOException {
    String xml = blocks("xml").get(0);
    String starterPom = Files.readString(Path.of("..", "starter", "pom.xml"));

    assertThat(xml)
        .contains("<groupId>dev.matview</groupId>")
        .contains("<artifactId>matview-spring-boot-starter</artifactId>")
        .contains("<version>" + projectVersion(starterPom) + "</version>");
    assertThat(starterPom).contains("<artifactId>matview-spring-boot-starter</artifactId>");
  }

  @Test
  void anApplicationMadeOfItsCodeAndSettingsAnswersTheLookupItPromises() throws Exception {
    List<String> java = blocks("java");
    Path sources = Files.createDirectories(this.dir.resolve("src/readme"));
    Files.writeString(sources.resolve("OrderViews.java"), "package readme;\n\n" + java.get(0));
    Files.writeString(sources.resolve("ReadmeApplication.java"), application(java.get(1)));
    Path classes = Files.createDirectories(this.dir.resolve("classes"));
    compile(classes, sources.resolve("OrderViews.java"), sources.resolve("ReadmeApplication.java"));
    Path yaml = Files.writeString(this.dir.resolve("application.yml"), blocks("yaml").get(0));

    try (KraftBroker broker = new KraftBroker(0, this.dir.resolve("broker"))) {
      broker.start();
      answersThePromisedLookup(classes, yaml, broker);
    }
  }

  private void answersThePromisedLookup(Path classes, Path yaml, KraftBroker broker)
      throws Exception {
    try (URLClassLoader loader =
            new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader());
        ConfigurableApplicationContext app =
            new SpringApplicationBuilder(loader.loadClass("readme.ReadmeApplication"))
                .resourceLoader(new DefaultResourceLoader(loader))
                .run(
                    "--spring.config.location=file:" + yaml,
                    "--spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
                    "--spring.main.banner-mode=off",
                    "--server.port=0",
                    "--spring.kafka.streams.state-dir=" + this.dir.resolve("state"),
                    "--matview.advertised-host=localhost")) {
      publishThreeOrdersOfCustomer1(broker);
      int port = ((WebServerApplicationContext) app).getWebServer().getPort();
      HttpProbe http = HttpProbe.localhost(port);
      await("the README's answer")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .untilAsserted(
              () ->
                  assertThat(http.get("/views/orders-per-customer/keys/customer-1").body())
                      .isEqualToIgnoringWhitespace(promisedAnswer()));
    }
  }

  /** The README's {@code @Bean} method, with its imports, in a Spring Boot application class. */
  private static String application(String beanBlock) {
    String imports =
        beanBlock.lines().filter((line) -> line.startsWith("import ")).collect(joinLines());
    String method =
        beanBlock.lines().filter((line) -> !line.startsWith("import ")).collect(joinLines());
    return "package readme;\n\n"
        + imports
        + "import org.springframework.boot.autoconfigure.SpringBootApplication;\n\n"
        + "@SpringBootApplication\nclass ReadmeApplication {\n"
        + method
        + "}\n";
  }

  private static java.util.stream.Collector<CharSequence, ?, String> joinLines() {
    return Collectors.joining("\n", "", "\n");
  }

  private static void compile(Path classes, Path... sources) {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    List<String> arguments = new ArrayList<>();
    arguments.addAll(
        List.of(
            "-d",
            classes.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            "-proc:none",
            "-parameters"));
    for (Path source : sources) {
      arguments.add(source.toString());
    }
    assertThat(compiler.run(null, null, null, arguments.toArray(String[]::new)))
        .as("javac of the README's code")
        .isZero();
  }

  private static void publishThreeOrdersOfCustomer1(KraftBroker broker) {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
            new StringSerializer(),
            new StringSerializer())) {
      for (int n = 1; n <= 3; n++) {
        producer.send(
            new ProducerRecord<>(
                "orders",
                "order-" + n,
                "{\"orderId\":\"order-"
                    + n
                    + "\",\"customerId\":\"customer-1\",\"amount\":12.50,"
                    + "\"ts\":\"2026-12-01T10:00:00Z\"}"));
      }
    }
  }

  /** The answer the README gives for customer-1 after three orders. */
  private static String promisedAnswer() throws IOException {
    Matcher answer =
        Pattern.compile("`GET /views/orders-per-customer/keys/customer-1` now answers `([^`]+)`")
            .matcher(section());
    assertThat(answer.find()).as("the README's promised answer").isTrue();
    return answer.group(1);
  }

  private static List<String> blocks(String language) throws IOException {
    Matcher block =
        Pattern.compile("```" + language + "\\n(.*?)```", Pattern.DOTALL).matcher(section());
    List<String> found = new ArrayList<>();
    while (block.find()) {
      found.add(block.group(1));
    }
    assertThat(found).as("%s blocks in the README's section", language).isNotEmpty();
    return found;
  }

  private static String section() throws IOException {
    String readme = Files.readString(README, StandardCharsets.UTF_8);
    int start = readme.indexOf(SECTION);
    assertThat(start).as("the README's section %s", SECTION).isNotNegative();
    int end = readme.indexOf("\n### ", start + SECTION.length());
    return readme.substring(start, end < 0 ? readme.length() : end);
  }

  private static String projectVersion(String pom) {
    Matcher version =
        Pattern.compile("<parent>.*?<version>([^<]+)</version>", Pattern.DOTALL).matcher(pom);
    assertThat(version.find()).isTrue();
    return version.group(1);
  }
}
