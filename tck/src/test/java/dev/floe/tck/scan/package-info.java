/**
 * The scan-runtime kit: a table many times the heap streams through the shaded driver in a small
 * child JVM, and a cancelled or timed-out scan closes the files it opened.
 */
package dev.floe.tck.scan;
