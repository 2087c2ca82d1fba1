/**
 * The HTTP/1.1 client with which instances ask each other, on Apache HttpClient 5 async, which
 * Matview's jar carries relocated so that a user's own choice of HTTP client stays theirs: one I/O
 * thread carries every exchange over kept-alive connections from one pool for all instances, an
 * answer read whole into a future, or a body handed to a {@link dev.matview.peer.http.BodyListener}
 * as it arrives and read on only as fast as it takes it.
 */
@NullMarked
package dev.matview.peer.http;

import org.jspecify.annotations.NullMarked;
