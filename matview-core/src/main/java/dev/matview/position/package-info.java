/**
 * Positions: how far a replica had applied the topic that feeds a view's store, per partition
 * ({@link dev.matview.position.ViewPosition}), written as signed, URL-safe tokens ({@link
 * dev.matview.position.PositionTokens}), and what a request asks an answer to include ({@link
 * dev.matview.position.ReadBound}): a position sent back, or input records named by topic,
 * partition and offset. Nothing here knows HTTP.
 */
@NullMarked
package dev.matview.position;

import org.jspecify.annotations.NullMarked;
