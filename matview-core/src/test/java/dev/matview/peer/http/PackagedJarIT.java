package dev.matview.peer.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The jar this module packages carries Apache HttpClient relocated, and the pom it installs does
 * not name it, so that an app's own {@code RestClient} is built on the HTTP client the app chose.
 * Run by failsafe once the shade plugin has replaced the jar, with the paths of the jar and of the
 * installed pom as system properties.
 */
class PackagedJarIT {

  private static final List<String> UNRELOCATED = List.of("org/apache/hc/", "org.apache.hc.");

  @Test
  void carriesTheHttpClientOnlyUnderMatviewsOwnPackage() throws IOException {
    try (JarFile jar = new JarFile(path("matview.packaged-jar").toFile())) {
      List<String> names = jar.stream().map(JarEntry::getName).toList();
      assertThat(names)
          .contains(
              "dev/matview/peer/http/PeerAsyncHttpClient.class",
              "dev/matview/internal/hc/client5/http/impl/async/CloseableHttpAsyncClient.class",
              "dev/matview/internal/hc/core5/reactor/IOReactorConfig.class")
          .noneMatch((name) -> name.startsWith("org/apache/hc/"));
    }
  }

  @Test
  void holdsNoClassThatNamesTheHttpClientWhereItIsNotRelocated() throws IOException {
    List<String> naming = new ArrayList<>();
    try (JarFile jar = new JarFile(path("matview.packaged-jar").toFile())) {
      for (JarEntry entry : jar.stream().toList()) {
        if (entry.getName().endsWith(".class") && namesUnrelocated(jar, entry)) {
          naming.add(entry.getName());
        }
      }
    }
    assertThat(naming).isEmpty();
  }

  @Test
  void installsAPomThatDependsOnSlf4jButNotOnTheHttpClient() throws Exception {
    NodeList dependencies =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(path("matview.installed-pom").toFile())
            .getElementsByTagName("dependency");
    List<String> coordinates = new ArrayList<>();
    for (int i = 0; i < dependencies.getLength(); i++) {
      Element dependency = (Element) dependencies.item(i);
      coordinates.add(text(dependency, "groupId") + ":" + text(dependency, "artifactId"));
    }
    assertThat(coordinates)
        .contains("org.slf4j:slf4j-api", "org.apache.kafka:kafka-streams")
        .noneMatch((coordinate) -> coordinate.startsWith("org.apache.httpcomponents"));
  }

  private static boolean namesUnrelocated(JarFile jar, JarEntry entry) throws IOException {
    String text;
    try (InputStream in = jar.getInputStream(entry)) {
      text = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
    return UNRELOCATED.stream().anyMatch(text::contains);
  }

  private static String text(Element element, String child) {
    return element.getElementsByTagName(child).item(0).getTextContent().strip();
  }

  private static Path path(String property) {
    String path = System.getProperty(property);
    assertThat(path).as("system property %s, set by the module's pom", property).isNotNull();
    Path file = Path.of(path);
    assertThat(Files.isRegularFile(file)).as("%s is a file", file).isTrue();
    return file;
  }
}
