/**
 * Avro values, for applications that add Apache Avro themselves (an optional dependency, used by no
 * other package): serdes of specific and generic records as plain Avro binary ({@link
 * dev.matview.avro.AvroSerdes}).
 */
@NullMarked
package dev.matview.avro;

import org.jspecify.annotations.NullMarked;
