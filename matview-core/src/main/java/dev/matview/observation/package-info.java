/**
 * Matview's observations (Micrometer's Observation API, no metrics): their names and key values
 * ({@link MatviewObservations}), each started as a child of the observation of the request that
 * caused it, carried explicitly rather than found on the current thread; nothing is made while the
 * request has no observation, as when the application has no {@code ObservationRegistry}.
 */
@NullMarked
package dev.matview.observation;

import org.jspecify.annotations.NullMarked;
