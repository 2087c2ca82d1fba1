/**
 * The lookup services on top of routing, local reads, peers and scans: key and window lookups,
 * batches and scans of a view from any instance, with the parsing of keys and time ranges they
 * share and the timing of each lookup. Subpackages own the parts: {@code answer} (values), {@code
 * routing}, {@code local}, {@code peer} and {@code scan}.
 */
@NullMarked
package dev.matview.query;

import org.jspecify.annotations.NullMarked;
