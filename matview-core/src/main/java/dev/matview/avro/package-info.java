/**
 * Avro values, for applications that add Apache Avro themselves (an optional dependency, which no
 * other package of this module uses): plain Avro binary serdes of specific and generic records
 * ({@link dev.matview.avro.AvroSerdes}) and the Jackson module that writes an Avro record as a JSON
 * object of its fields ({@link dev.matview.avro.AvroJacksonModule}).
 */
@NullMarked
package dev.matview.avro;

import org.jspecify.annotations.NullMarked;
