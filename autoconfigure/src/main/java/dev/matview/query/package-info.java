/** Local interactive queries of view stores through Kafka Streams IQv2. */
@NullMarked
package dev.matview.query;

import org.jspecify.annotations.NullMarked;
