package dev.matview.docs;

import dev.matview.docs.PageCompiler.CompiledPage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.util.FileSystemUtils;

/**
 * Every page's java blocks compiled once for all the checks: the README's first, with its one
 * {@code application.yml} beside its classes as the app's resources, then each page of the guide's,
 * which build on the README's app, against them. No page may declare a class that another declares.
 */
final class CompiledPages {

  private static final Path WORK = Path.of("target", "docs-code").toAbsolutePath();

  private static CompiledPages compiled;

  private final List<CompiledPage> pages;

  private final URLClassLoader readme;

  private final URLClassLoader all;

  private CompiledPages(List<CompiledPage> pages) {
    this.pages = pages;
    this.readme = loader("readme", pages.subList(0, 1));
    this.all = loader("docs", pages);
  }

  /** The pages compiled, on the first call. */
  static synchronized CompiledPages get() {
    if (compiled == null) {
      compiled = compile();
    }
    return compiled;
  }

  /** Each page's classes, the README's first. */
  List<CompiledPage> pages() {
    return this.pages;
  }

  /** A loader of the README's classes alone: the reader's app as the README builds it. */
  ClassLoader readme() {
    return this.readme;
  }

  /** A loader of every page's classes. */
  ClassLoader all() {
    return this.all;
  }

  private static CompiledPages compile() {
    try {
      FileSystemUtils.deleteRecursively(WORK);
      Files.createDirectories(WORK);
      List<CompiledPage> pages = new ArrayList<>();
      CompiledPage readme = PageCompiler.compile(DocPages.readme(), List.of(), WORK);
      Files.writeString(readme.classes().resolve("application.yml"), readmeSettings().code());
      pages.add(readme);
      for (MarkdownPage page : DocPages.all().subList(1, DocPages.all().size())) {
        pages.add(PageCompiler.compile(page, List.of(readme.classes()), WORK));
      }
      requireDistinctClasses(pages);
      return new CompiledPages(List.copyOf(pages));
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  /** The README's one yaml block, the app's {@code src/main/resources/application.yml}. */
  static CodeBlock readmeSettings() {
    List<CodeBlock> yaml = DocPages.readme().blocks("yaml");
    if (yaml.size() != 1) {
      throw new AssertionError(
          "The README shows its app's application.yml as its one yaml block, not " + yaml.size());
    }
    return yaml.get(0);
  }

  private static void requireDistinctClasses(List<CompiledPage> pages) {
    Map<String, String> declaredBy = new HashMap<>();
    for (CompiledPage page : pages) {
      for (String name : page.classNames()) {
        String other = declaredBy.put(name, page.page());
        if (other != null) {
          throw new AssertionError(
              page.page() + " declares " + name + ", which " + other + " declares already");
        }
      }
    }
  }

  private static URLClassLoader loader(String name, List<CompiledPage> pages) {
    URL[] urls = new URL[pages.size()];
    for (int i = 0; i < urls.length; i++) {
      try {
        urls[i] = pages.get(i).classes().toUri().toURL();
      } catch (MalformedURLException ex) {
        throw new IllegalStateException(ex);
      }
    }
    return new URLClassLoader(name, urls, CompiledPages.class.getClassLoader());
  }
}
