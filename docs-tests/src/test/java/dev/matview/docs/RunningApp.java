package dev.matview.docs;

import dev.matview.processes.http.HttpProbe;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * A Spring Boot application of classes from a class loader of their own, started in this JVM as its
 * {@code main} would start it, with the arguments given.
 */
final class RunningApp implements AutoCloseable {

  private final ConfigurableApplicationContext context;

  private RunningApp(ConfigurableApplicationContext context) {
    this.context = context;
  }

  /** Starts {@code application}, a class of {@code loader}, with {@code arguments}. */
  static RunningApp start(ClassLoader loader, String application, List<String> arguments)
      throws ClassNotFoundException {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try {
      return new RunningApp(
          new SpringApplicationBuilder(Class.forName(application, true, loader))
              .resourceLoader(new DefaultResourceLoader(loader))
              .run(arguments.toArray(String[]::new)));
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /** The application's context. */
  ConfigurableApplicationContext context() {
    return this.context;
  }

  /** A probe of the application's web server. */
  HttpProbe http() {
    return HttpProbe.localhost(
        ((WebServerApplicationContext) this.context).getWebServer().getPort());
  }

  @Override
  public void close() {
    this.context.close();
  }
}
