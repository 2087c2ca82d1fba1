/** A user's application, run by the tests with and without the development broker. */
package dev.matview.devbroker.app;
