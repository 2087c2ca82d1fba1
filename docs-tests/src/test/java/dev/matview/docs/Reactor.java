package dev.matview.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.w3c.dom.Element;

/**
 * This build as its poms declare it: Matview's version, the Spring Boot version it builds on, the
 * modules with their artifacts and properties, and the Maven profiles of every pom.
 *
 * @param version Matview's version, the root pom's
 * @param bootVersion the version of {@code spring-boot-starter-parent}, the root pom's parent
 * @param modules each module's directory and its pom's root element, in the root pom's order
 * @param profiles the ids of the profiles of the root pom and of every module's pom
 */
record Reactor(
    String version, String bootVersion, Map<String, Element> modules, Set<String> profiles) {

  private static final Reactor BUILD = read(DocPages.root());

  private static final Map<String, String> MANAGED = managed(DocPages.root());

  /** This build. */
  static Reactor build() {
    return BUILD;
  }

  /** The artifactId of the module in {@code directory}. */
  String artifactId(String directory) {
    return Xml.text(this.modules.get(directory), "artifactId").orElseThrow();
  }

  /** The artifactIds of every module. */
  Set<String> artifactIds() {
    Set<String> ids = new TreeSet<>();
    this.modules.keySet().forEach(module -> ids.add(artifactId(module)));
    return ids;
  }

  /**
   * The versions the root pom gives artifacts and plugins in its dependency and plugin management,
   * by {@code groupId:artifactId}, with its properties resolved.
   */
  Map<String, String> managedVersions() {
    return MANAGED;
  }

  /** The value of the property {@code name} that the pom of {@code module} sets, or the root's. */
  String property(String module, String name, String root) {
    return Xml.children(this.modules.get(module), "properties").stream()
        .flatMap(properties -> Xml.text(properties, name).stream())
        .findFirst()
        .orElse(root);
  }

  private static Reactor read(Path root) {
    Element pom = pom(root.resolve("pom.xml"));
    Element parent = Xml.children(pom, "parent").get(0);
    Map<String, Element> modules = new LinkedHashMap<>();
    Set<String> profiles = new TreeSet<>(profiles(pom));
    for (Element module : Xml.all(Xml.children(pom, "modules").get(0), "module")) {
      String directory = module.getTextContent().strip();
      Element modulePom = pom(root.resolve(directory).resolve("pom.xml"));
      modules.put(directory, modulePom);
      profiles.addAll(profiles(modulePom));
    }
    return new Reactor(
        Xml.text(pom, "version").orElseThrow(),
        Xml.text(parent, "version").orElseThrow(),
        modules,
        profiles);
  }

  private static Map<String, String> managed(Path root) {
    Element pom = pom(root.resolve("pom.xml"));
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("project.version", Xml.text(pom, "version").orElseThrow());
    for (Element all : Xml.children(pom, "properties")) {
      Xml.elements(all)
          .forEach(
              property -> properties.put(property.getTagName(), property.getTextContent().strip()));
    }
    Map<String, String> managed = new LinkedHashMap<>();
    for (String kind : new String[] {"dependencyManagement", "build"}) {
      for (Element section : Xml.children(pom, kind)) {
        for (Element coordinate : coordinates(section)) {
          String version = Xml.text(coordinate, "version").orElse("");
          String property = version.replaceAll("^\\$\\{(.+)}$", "$1");
          managed.put(
              Xml.text(coordinate, "groupId").orElse("org.apache.maven.plugins")
                  + ":"
                  + Xml.text(coordinate, "artifactId").orElseThrow(),
              properties.getOrDefault(property, version));
        }
      }
    }
    managed.values().removeIf(String::isEmpty);
    return managed;
  }

  private static List<Element> coordinates(Element section) {
    List<Element> found = new ArrayList<>(Xml.all(section, "dependency"));
    found.addAll(Xml.all(section, "plugin"));
    return found;
  }

  private static Set<String> profiles(Element pom) {
    Set<String> ids = new TreeSet<>();
    Xml.children(pom, "profiles")
        .forEach(
            profiles ->
                Xml.children(profiles, "profile")
                    .forEach(profile -> ids.add(Xml.text(profile, "id").orElseThrow())));
    return ids;
  }

  private static Element pom(Path file) {
    try {
      return Xml.parse(Files.readString(file), file.toString());
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }
}
