package dev.matview.docs;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The sample app's compiled classes and resources, in a class loader of their own: its {@code
 * application.yml} and its configuration metadata are seen through it alone, never by the other
 * applications these tests run.
 */
final class SampleClasses {

  /** The sample's application class. */
  static final String APPLICATION = "dev.matview.sample.MatviewSampleApplication";

  private static final URLClassLoader LOADER = open();

  private SampleClasses() {}

  /** A loader of the sample's classes, whose parent is this module's test class loader. */
  static ClassLoader loader() {
    return LOADER;
  }

  private static URLClassLoader open() {
    Path classes = DocPages.root().resolve("sample-app/target/classes");
    if (!Files.isRegularFile(classes.resolve(APPLICATION.replace('.', '/') + ".class"))) {
      throw new IllegalStateException(
          "The sample is not compiled in "
              + classes
              + ": build it with these tests, mvn -pl docs-tests -am test");
    }
    try {
      return new URLClassLoader(
          "sample-app", new URL[] {classes.toUri().toURL()}, SampleClasses.class.getClassLoader());
    } catch (MalformedURLException ex) {
      throw new IllegalStateException(ex);
    }
  }
}
