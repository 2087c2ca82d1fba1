/**
 * The HTTP/1.1 client with which instances ask each other: blocking exchanges on the calling thread
 * over kept-alive connections from one pool for all instances, on Apache HttpClient 5 classic,
 * which Matview's jar carries relocated so that a user's own choice of HTTP client stays theirs.
 */
@NullMarked
package dev.matview.peer.http;

import org.jspecify.annotations.NullMarked;
