package dev.matview.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.matview.autoconfigure.MatviewAutoConfiguration;
import dev.matview.view.MaterializedView;
import dev.matview.web.ViewProblemHandler;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.channels.NetworkChannel;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.KafkaFuture;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The package map of CONTRIBUTING.md, checked: which module each package of the main code lives in,
 * which other packages of Matview it may use, and which frameworks each module stays clear of.
 */
class ArchitectureTests {

  private static final String ROOT = "dev.matview.";

  /** Each package of the main code (below {@code dev.matview}), its module and what it may use. */
  private static final Map<String, Part> MAP =
      Map.ofEntries(
          core("view"),
          core("avro"),
          core("execution"),
          core("replica"),
          core("rocksdb"),
          core("kafka"),
          core("disk"),
          core("topology", "view", "replica"),
          core("deadletter", "topology", "view"),
          core("peer", "kafka", "peer.http", "view"),
          core("peer.http"),
          core("observation"),
          core("position", "peer"),
          core("query.answer", "peer", "position", "replica"),
          core("query.routing", "query.answer", "position", "topology"),
          core(
              "query.local",
              "query.answer",
              "query.routing",
              "position",
              "replica",
              "kafka",
              "topology",
              "view"),
          core(
              "query.peer",
              "observation",
              "query.answer",
              "query.local",
              "query.routing",
              "peer",
              "peer.http",
              "position",
              "topology"),
          core(
              "query.scan",
              "observation",
              "query.answer",
              "query.local",
              "query.peer",
              "query.routing",
              "peer",
              "peer.http",
              "position",
              "topology"),
          core(
              "query",
              "observation",
              "query.answer",
              "query.local",
              "query.peer",
              "query.routing",
              "query.scan",
              "peer",
              "position",
              "topology",
              "view"),
          core(
              "changes",
              "observation",
              "query",
              "query.answer",
              "query.peer",
              "query.routing",
              "peer",
              "peer.http",
              "position",
              "replica",
              "topology",
              "view"),
          web(
              "web",
              "changes",
              "query",
              "query.answer",
              "query.routing",
              "query.scan",
              "peer",
              "position",
              "replica",
              "topology",
              "view"),
          web("dashboard"),
          web("openapi", "topology", "view"),
          boot("check", "kafka", "rocksdb", "topology", "view"),
          boot("health", "disk", "query.answer", "query.local", "rocksdb"),
          boot(
              "metrics",
              "changes",
              "deadletter",
              "disk",
              "execution",
              "health",
              "peer",
              "query",
              "rocksdb",
              "topology"),
          boot(
              "actuate",
              "deadletter",
              "disk",
              "health",
              "metrics",
              "query.routing",
              "rocksdb",
              "topology",
              "view"),
          boot("startup", "topology", "view"),
          Map.entry("autoconfigure", new Part(Module.AUTOCONFIGURE, Set.of("*"))));

  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .importUrls(Stream.of(Module.values()).map(Module::location).collect(Collectors.toList()))
          .that(not(resideInAPackage(ROOT + "internal..")));

  @Test
  void importsTheMainCodeOfEveryModule() {
    for (Module module : Module.values()) {
      assertThat(MAIN.stream().filter(type -> module.holds(type)).count())
          .as("classes imported from %s", module.location())
          .isGreaterThan(10);
    }
  }

  @Test
  void mapsEveryPackageOfTheMainCode() {
    Set<String> packages =
        MAIN.stream()
            .map(type -> type.getPackageName().substring(ROOT.length()))
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(MAP.keySet()).containsExactlyInAnyOrderElementsOf(packages);
  }

  @Test
  void keepsEachPackageInItsModule() {
    for (JavaClass type : MAIN) {
      Part part = MAP.get(type.getPackageName().substring(ROOT.length()));
      assertThat(part).as("the map's entry of %s", type.getPackageName()).isNotNull();
      assertThat(part.module().holds(type))
          .as("%s lives in %s", type.getName(), part.module())
          .isTrue();
    }
  }

  @TestFactory
  Stream<DynamicTest> eachPackageUsesOnlyWhatTheMapAllows() {
    return MAP.entrySet().stream()
        .filter(entry -> !entry.getValue().mayUse().contains("*"))
        .sorted(Map.Entry.comparingByKey())
        .map(
            entry ->
                DynamicTest.dynamicTest(
                    entry.getKey(),
                    () ->
                        noClasses()
                            .that()
                            .resideInAPackage(ROOT + entry.getKey())
                            .should()
                            .dependOnClassesThat(
                                resideInAnyPackage(forbiddenFor(entry.getKey(), entry.getValue())))
                            .because("CONTRIBUTING.md's package map says so")
                            .check(MAIN)));
  }

  @Test
  void coreUsesNeitherSpringBootNorTheServletApiNorSpringMvcNorMicrometerMetrics() {
    noClasses()
        .that(Module.CORE.classes())
        .should()
        .dependOnClassesThat(
            resideInAnyPackage(
                "org.springframework.boot..",
                "jakarta.servlet..",
                "org.springframework.web..",
                "org.springframework.http..",
                "io.micrometer.core..",
                "io.micrometer.tracing.."))
        .check(MAIN);
  }

  @Test
  void webUsesNoSpringBootAndNoHttpClientOfItsOwn() {
    noClasses()
        .that(Module.WEB.classes())
        .should()
        .dependOnClassesThat(
            resideInAnyPackage("org.springframework.boot..", "org.apache.hc..", "java.net.http.."))
        .check(MAIN);
  }

  @Test
  void noPackageButAvroUsesApacheAvroWhichApplicationsMayLack() {
    noClasses()
        .that(not(resideInAPackage(ROOT + "avro")))
        .and()
        .haveNameNotMatching("dev\\.matview\\.openapi\\.AvroValueSchemas.*")
        .should()
        .dependOnClassesThat(resideInAPackage("org.apache.avro.."))
        .check(MAIN);
  }

  @Test
  void noModuleButCoreTalksToOtherInstancesOverItsOwnClient() {
    noClasses()
        .that(not(Module.CORE.classes()))
        .should()
        .dependOnClassesThat(resideInAnyPackage("org.apache.hc..", "java.net.http.."))
        .check(MAIN);
  }

  @Test
  void noModuleTalksOverTheJdksHttpClientOrSocketsOfItsOwn() {
    noClasses()
        .should()
        .dependOnClassesThat(
            resideInAnyPackage("java.net.http..")
                .or(assignableTo(Socket.class))
                .or(assignableTo(ServerSocket.class))
                .or(assignableTo(NetworkChannel.class)))
        .because("instances talk to each other over the peers' one HTTP client")
        .check(MAIN);
  }

  /**
   * Classes that may wait for another thread's work, none of them on a request thread: a store's
   * close for its reads, the start-up checks, the repartition topics made before Kafka Streams
   * starts and the peers' secret agreement for the broker, the polls' own broker calls, a dead
   * letter's send on the stream thread (nothing is lost), the peers' client's futures that delegate
   * their get (a stream's, and the one that stops its observation when cancelled), and the
   * executors at shutdown.
   */
  private static final String MAY_WAIT =
      "dev\\.matview\\.(replica\\.ReadGate|check\\..*|autoconfigure\\.RepartitionTopicsLifecycle|"
          + "peer\\.SecretTopic|query\\.local\\.RekeyedRecords.*|deadletter\\.DeadLetterPublisher|"
          + "peer\\.http\\.CancelHookFuture|"
          + "execution\\.MatviewExecutors.*)";

  @Test
  void noRequestPathWaitsForAnotherThreadsWork() {
    noClasses()
        .that(not(HasName.Predicates.nameMatching(MAY_WAIT)))
        .should()
        .callMethod(Thread.class, "sleep", long.class)
        .orShould()
        .callMethod(Thread.class, "yield")
        .orShould()
        .callMethod(Future.class, "get")
        .orShould()
        .callMethod(Future.class, "get", long.class, TimeUnit.class)
        .orShould()
        .callMethod(CompletableFuture.class, "get")
        .orShould()
        .callMethod(CompletableFuture.class, "get", long.class, TimeUnit.class)
        .orShould()
        .callMethod(KafkaFuture.class, "get")
        .orShould()
        .callMethod(KafkaFuture.class, "get", long.class, TimeUnit.class)
        .because(
            "no request thread waits on another's work: a future is composed, a retry handed to"
                + " an executor")
        .check(MAIN);
  }

  private static String[] forbiddenFor(String name, Part part) {
    return MAP.keySet().stream()
        .filter(other -> !other.equals(name) && !part.mayUse().contains(other))
        .map(other -> ROOT + other)
        .toArray(String[]::new);
  }

  private static Map.Entry<String, Part> core(String name, String... mayUse) {
    return Map.entry(name, new Part(Module.CORE, Set.of(mayUse)));
  }

  private static Map.Entry<String, Part> web(String name, String... mayUse) {
    return Map.entry(name, new Part(Module.WEB, Set.of(mayUse)));
  }

  private static Map.Entry<String, Part> boot(String name, String... mayUse) {
    return Map.entry(name, new Part(Module.AUTOCONFIGURE, Set.of(mayUse)));
  }

  /** A package's module and the packages it may use ({@code *}: any). */
  private record Part(Module module, Set<String> mayUse) {}

  /** The modules of the main code, each found by the location of a class it holds. */
  private enum Module {
    CORE(MaterializedView.class),
    WEB(ViewProblemHandler.class),
    AUTOCONFIGURE(MatviewAutoConfiguration.class);

    private final URL location;

    Module(Class<?> member) {
      this.location = member.getProtectionDomain().getCodeSource().getLocation();
    }

    URL location() {
      return this.location;
    }

    DescribedPredicate<JavaClass> classes() {
      return DescribedPredicate.describe("classes of " + this, this::holds);
    }

    boolean holds(JavaClass type) {
      return type.getSource().map(source -> within(source.getUri())).orElse(false);
    }

    private boolean within(URI source) {
      String text = source.toString();
      URI file =
          text.startsWith("jar:") ? URI.create(text.substring(4, text.indexOf('!'))) : source;
      try {
        return Path.of(file).startsWith(Path.of(this.location.toURI()));
      } catch (URISyntaxException ex) {
        throw new IllegalStateException(ex);
      }
    }
  }
}
