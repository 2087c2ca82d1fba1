package dev.matview.view;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.AliasFor;

/**
 * Declares a {@link ViewDefinition} bean as a materialized view; the view is named by this
 * annotation, or by the bean name when no name is given.
 *
 * <pre>{@code
 * @MaterializedView("orders-per-customer")
 * ViewDefinition<String, Order, Long> ordersPerCustomer() {
 *   return Views.from("orders", Order.class).groupBy(String.class, Order::customerId).count();
 * }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Bean
public @interface MaterializedView {

  /** The view's name, which also names its state store and changelog topic. */
  @AliasFor("name")
  String value() default "";

  /** The view's name, which also names its state store and changelog topic. */
  @AliasFor("value")
  String name() default "";
}
