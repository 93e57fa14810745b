/** The error catalog shared by the planner and the driver: SQLStates and message templates. */
package dev.floe.error;
