package dev.matview.docs;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles the {@code java} blocks of one page together, each block a source file of its own, with
 * the classes of the page's Avro schemas, against this module's test class path and the classes of
 * pages compiled before it.
 */
final class PageCompiler {

  private static final JavaCompiler JAVAC = ToolProvider.getSystemJavaCompiler();

  private PageCompiler() {}

  /**
   * The classes of {@code page}'s java blocks, written under {@code work}.
   *
   * @param before the class directories of the pages the page builds on
   * @throws AssertionError naming each error at its line of the page when javac refuses them
   */
  static CompiledPage compile(MarkdownPage page, List<Path> before, Path work) throws IOException {
    List<JavaUnit> units =
        page.blocks("java").stream().filter(CodeBlock::tested).map(JavaUnit::of).toList();
    String name = page.path().replaceAll("[^A-Za-z0-9]", "-").toLowerCase(Locale.ROOT);
    Path sources = work.resolve(name).resolve("src");
    Path classes = Files.createDirectories(work.resolve(name).resolve("classes"));
    Map<Path, JavaUnit> files = new HashMap<>();
    for (JavaUnit unit : units) {
      Path file = sources.resolve(unit.file());
      JavaUnit twin = files.put(file, unit);
      if (twin != null) {
        throw new AssertionError(
            unit.block().where() + " and " + twin.block().where() + " both declare " + unit.file());
      }
      Files.createDirectories(file.getParent());
      Files.writeString(file, unit.block().code(), StandardCharsets.UTF_8);
    }
    List<Path> generated = AvroSchemas.generate(page, sources);
    if (!files.isEmpty()) {
      javac(files, generated, classes, before);
    }
    return new CompiledPage(page.path(), classes, units.size(), classNames(classes));
  }

  private static void javac(
      Map<Path, JavaUnit> files, List<Path> generated, Path classes, List<Path> before)
      throws IOException {
    List<String> classPath = new ArrayList<>();
    before.forEach(dir -> classPath.add(dir.toString()));
    classPath.add(System.getProperty("java.class.path"));
    List<String> options =
        List.of(
            "--release",
            "17",
            "-proc:none",
            "-parameters",
            "-d",
            classes.toString(),
            "-cp",
            String.join(File.pathSeparator, classPath));
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager manager =
        JAVAC.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      boolean compiled =
          JAVAC
              .getTask(
                  null,
                  manager,
                  diagnostics,
                  options,
                  null,
                  manager.getJavaFileObjectsFromPaths(sources(files, generated)))
              .call();
      if (!compiled) {
        throw new AssertionError("javac refuses the page's code:\n" + errors(diagnostics, files));
      }
    }
  }

  private static List<Path> sources(Map<Path, JavaUnit> files, List<Path> generated) {
    List<Path> all = new ArrayList<>(files.keySet());
    all.addAll(generated);
    return all;
  }

  private static String errors(
      DiagnosticCollector<JavaFileObject> diagnostics, Map<Path, JavaUnit> files) {
    StringBuilder errors = new StringBuilder();
    for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
      if (diagnostic.getKind() != Diagnostic.Kind.ERROR) {
        continue;
      }
      JavaUnit unit =
          (diagnostic.getSource() != null)
              ? files.get(Path.of(diagnostic.getSource().toUri()))
              : null;
      String where =
          (unit != null)
              ? unit.block().page() + ":" + unit.block().pageLine((int) diagnostic.getLineNumber())
              : "?";
      errors.append(where).append(": ").append(diagnostic.getMessage(Locale.ROOT)).append('\n');
    }
    return errors.toString();
  }

  private static List<String> classNames(Path classes) {
    try (Stream<Path> files = Files.walk(classes)) {
      return files
          .filter(file -> file.toString().endsWith(".class"))
          .map(file -> classes.relativize(file).toString())
          .map(file -> file.substring(0, file.length() - ".class".length()))
          .map(file -> file.replace(File.separatorChar, '.'))
          .sorted()
          .toList();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /**
   * A page's compiled classes.
   *
   * @param page the page
   * @param classes where its classes are
   * @param units how many java blocks it has, each a source file
   * @param classNames the binary names of its classes, nested ones included
   */
  record CompiledPage(String page, Path classes, int units, List<String> classNames) {}
}
