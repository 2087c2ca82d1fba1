/**
 * Typed calls of a Matview view from another service, on Spring's {@code RestClient}: {@link
 * dev.matview.client.MatviewClient} hands out a {@link dev.matview.client.RemoteView} per view,
 * whose lookups, windows, batches and scans (a page per call, or streamed in one response that
 * resumes where it broke off) follow {@code Retry-After} within a deadline and carry the view's
 * position from one call to the next.
 *
 * <p>Every call goes through one exchange ({@code ViewExchange}: the request, the position it sends
 * and keeps, the retries) and is read by one reader ({@code AnswerReader}); a stream of a view's
 * changes is to be a further kind of call on the same two.
 */
@NullMarked
package dev.matview.client;

import org.jspecify.annotations.NullMarked;
