/**
 * The error catalog shared by the planner and the driver ({@link dev.floe.error.FloeError}:
 * SQLStates and message templates), and the one boundary where failures become SQLExceptions and
 * notices SQLWarnings ({@link dev.floe.error.SqlErrors}).
 */
package dev.floe.error;
