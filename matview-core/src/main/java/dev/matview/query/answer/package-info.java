/**
 * What lookups answer, as values: a key's value, its windows, scan pages and slices, batch items,
 * the replica that answered, and a {@link dev.matview.query.answer.Refusal} with its reason when
 * none could. Where a key lives ({@link dev.matview.query.answer.Placement}) is an answer too.
 * Nothing here knows HTTP; {@code web} maps these to responses.
 */
@NullMarked
package dev.matview.query.answer;

import org.jspecify.annotations.NullMarked;
