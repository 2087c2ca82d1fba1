package dev.matview.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * Every {@code xml} block of the README and the guide is well-formed, names Matview's artifacts as
 * modules of this build at its version, and Spring Boot's parent at the version it builds on.
 */
class XmlBlocksTests {

  private final Reactor build = Reactor.build();

  @Test
  void everyMatviewCoordinateNamesAModuleOfThisBuildAtItsVersion() {
    int coordinates = 0;
    for (CodeBlock block : DocPages.tested("xml")) {
      for (Element element : coordinates(block, "dev.matview")) {
        String artifact = Xml.text(element, "artifactId").orElse("");
        assertThat(this.build.artifactIds())
            .as("%s: dev.matview:%s is no module of this build", block.where(), artifact)
            .contains(artifact);
        assertThat(Xml.text(element, "version"))
            .as("%s: the version of dev.matview:%s", block.where(), artifact)
            .contains(this.build.version());
        coordinates++;
      }
    }
    assertThat(DocPages.tested("xml")).isNotEmpty();
    assertThat(coordinates).as("dev.matview coordinates in the xml blocks").isGreaterThan(5);
  }

  @Test
  void everyVersionOfAnArtifactTheBuildManagesIsTheBuildsVersion() {
    Map<String, String> managed = this.build.managedVersions();
    int checked = 0;
    for (CodeBlock block : DocPages.tested("xml")) {
      Element root = Xml.parse(block.code(), block.where());
      for (Element group : Xml.all(root, "groupId")) {
        Element coordinate = (Element) group.getParentNode();
        String key =
            group.getTextContent().strip() + ":" + Xml.text(coordinate, "artifactId").orElse("");
        Optional<String> version = Xml.text(coordinate, "version");
        if (managed.containsKey(key) && version.isPresent()) {
          assertThat(version.get())
              .as("%s: the version of %s", block.where(), key)
              .isEqualTo(managed.get(key));
          checked++;
        }
      }
    }
    assertThat(managed)
        .containsKeys("dev.matview:matview-spring-boot-starter", "org.apache.avro:avro");
    assertThat(checked).as("versions of artifacts the build manages").isGreaterThan(5);
  }

  @Test
  void theDevelopmentBrokerNeverGoesIntoAnAppsJar() {
    long shown = 0;
    for (CodeBlock block : DocPages.tested("xml")) {
      for (Element element : coordinates(block, "dev.matview")) {
        if (Xml.text(element, "artifactId").orElse("").equals("matview-dev-broker")) {
          assertThat(
                  Xml.text(element, "optional").orElse("").equals("true")
                      || Xml.text(element, "scope").orElse("").equals("test"))
              .as("%s: the development broker optional, or in the test scope", block.where())
              .isTrue();
          shown++;
        }
      }
    }
    assertThat(shown).as("dependencies on the development broker").isPositive();
  }

  @Test
  void springBootsParentIsTheVersionThisBuildBuildsOn() {
    long parents = 0;
    for (CodeBlock block : DocPages.tested("xml")) {
      for (Element element : coordinates(block, "org.springframework.boot")) {
        if (Xml.text(element, "artifactId").orElse("").equals("spring-boot-starter-parent")) {
          assertThat(Xml.text(element, "version"))
              .as("%s: Spring Boot's version", block.where())
              .contains(this.build.bootVersion());
          parents++;
        }
      }
    }
    assertThat(parents).as("poms with Spring Boot's parent").isPositive();
  }

  /** The elements of the block whose {@code groupId} is {@code groupId}. */
  private static List<Element> coordinates(CodeBlock block, String groupId) {
    Element root = Xml.parse(block.code(), block.where());
    return Xml.all(root, "groupId").stream()
        .filter(group -> group.getTextContent().strip().equals(groupId))
        .map(group -> (Element) group.getParentNode())
        .toList();
  }
}
