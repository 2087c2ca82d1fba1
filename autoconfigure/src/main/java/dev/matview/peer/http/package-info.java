/**
 * The HTTP/1.1 client with which instances ask each other: blocking exchanges on the calling thread
 * over kept-alive connections, pooled per instance.
 */
@NullMarked
package dev.matview.peer.http;

import org.jspecify.annotations.NullMarked;
