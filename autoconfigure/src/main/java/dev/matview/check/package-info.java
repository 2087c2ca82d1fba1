/** Start-up checks of the views' source, changelog and repartition topics on the broker. */
@NullMarked
package dev.matview.check;

import org.jspecify.annotations.NullMarked;
