package dev.matview.test;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * The kit's slice tests of the {@link Shop}, on a broker whose topics have two partitions; the test
 * classes share one application, each with customers of its own.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@MatviewIntegrationTest(
    classes = Shop.class,
    webEnvironment = WebEnvironment.RANDOM_PORT,
    partitions = 2,
    properties = {
      "spring.kafka.streams.application-id=kit-it",
      "matview.advertised-host=localhost",
      "matview.rocksdb.total-memory=32MB"
    })
@interface ShopIntegrationTest {}
