package dev.matview.query.answer;

/**
 * Where a key lives, or why that is not known: the replicas of its partition, or a refusal. A
 * value, so that routing a lookup allocates nothing and signals nothing by throwing.
 */
public sealed interface Placement permits KeyReplicas, Refusal {}
