/**
 * The HTTP/1.1 clients with which instances ask each other, on Apache HttpClient 5, which Matview's
 * jar carries relocated so that a user's own choice of HTTP client stays theirs: blocking exchanges
 * on the calling thread over kept-alive connections from one pool for all instances, and, for
 * requests that may wait at the other instance, exchanges that one I/O thread waits for.
 */
@NullMarked
package dev.matview.peer.http;

import org.jspecify.annotations.NullMarked;
