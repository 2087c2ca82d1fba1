package dev.matview.conformance;

import dev.matview.conformance.ConformanceCluster.Instance;
import dev.matview.processes.http.HttpProbe;

/**
 * One cell's question: a view, and the instance it is asked of.
 *
 * @param view the view
 * @param asker the instance asked
 */
record Asked(ViewKind view, Instance asker) {

  HttpProbe http() {
    return this.asker.http();
  }
}
