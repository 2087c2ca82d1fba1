/**
 * Trust between the instances of one application: the secret they share, the keys derived from it,
 * signed requests between instances and the paths they send each other.
 */
@NullMarked
package dev.matview.peer;

import org.jspecify.annotations.NullMarked;
