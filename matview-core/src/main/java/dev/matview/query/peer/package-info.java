/**
 * The peer side of a lookup: choosing which replica answers (here, on its owner, or a standby),
 * forwarding over the peer client, gathering lookups bound for the same instance, relaying what
 * cannot be placed yet, marking instances that do not answer, and telling a peer's failure as a
 * refusal that names no host.
 */
@NullMarked
package dev.matview.query.peer;

import org.jspecify.annotations.NullMarked;
