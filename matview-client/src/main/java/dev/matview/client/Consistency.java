package dev.matview.client;

/** What a call asks of the position of the replica that answers it. */
public enum Consistency {

  /**
   * Each call of a view is answered at least as new as the last answer this client received from
   * that view: the client sends the position of that answer ({@code Matview-Position}) with the
   * next call, so reads never go back in time, even when another replica answers.
   */
  MONOTONIC,

  /** Calls send no position: any replica the server would choose answers as it stands. */
  NONE
}
