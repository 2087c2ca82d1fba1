package dev.matview.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.PropertyMapping;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.AliasFor;

/**
 * A {@link SpringBootTest} of an application with Matview views, on an in-process single-node KRaft
 * broker of its own: it is the application's {@code KafkaConnectionDetails} (Matview's development
 * broker stays off) and {@code spring.kafka.bootstrap-servers} points at it, the views' source
 * topics that no {@code NewTopic} bean declares are created with {@link #partitions()} partitions,
 * and Kafka Streams keeps its state in a temporary directory. When the context closes the broker
 * stops first and its directory and the state directory are deleted after. The context offers a
 * {@link MatviewTestPublisher} that publishes records to the views' source topics, a {@link
 * MatviewTestClient} that calls the application's views over HTTP on its real port, and a {@link
 * ViewAwaiter} that waits for the views' answers. Kafka's own loggers log at WARN, as in every
 * application with Matview, unless {@code matview.logging.kafka=verbose} or a {@code logging.level}
 * property says otherwise.
 *
 * <pre>{@code
 * @MatviewIntegrationTest
 * class OrderViewsIntegrationTests {
 *
 *   @Autowired MatviewTestPublisher publisher;
 *
 *   @Autowired ViewAwaiter views;
 *
 *   @Autowired MatviewTestClient client;
 *
 *   @Test
 *   void countsOrdersPerCustomer() {
 *     publisher.publish("orders", "order-1", new Order("order-1", "alice"));
 *     views.awaitView("orders-per-customer", "alice", 1L);
 *     ViewAnswer<Optional<Long>> answer =
 *         client.view("orders-per-customer", String.class, Long.class).get("alice");
 *     assertThat(answer.body()).contains(1L);
 *   }
 * }
 * }</pre>
 *
 * <p>The broker and the application stay up while Spring's test context cache keeps the context;
 * add {@code @DirtiesContext} to stop them after the test class.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest
@Import(MatviewIntegrationTestConfiguration.class)
public @interface MatviewIntegrationTest {

  /** Properties of the application, such as {@code "sample.generator.enabled=false"}. */
  @AliasFor(annotation = SpringBootTest.class)
  String[] properties() default {};

  /** The application's classes; by default its {@code @SpringBootConfiguration} is searched for. */
  @AliasFor(annotation = SpringBootTest.class)
  Class<?>[] classes() default {};

  /** The web environment, a real server on a random port by default. */
  @AliasFor(annotation = SpringBootTest.class)
  WebEnvironment webEnvironment() default WebEnvironment.RANDOM_PORT;

  /** Partitions of the source topics the broker creates, and of its other new topics. */
  @PropertyMapping(MatviewIntegrationTestConfiguration.PARTITIONS_PROPERTY)
  int partitions() default 1;
}
