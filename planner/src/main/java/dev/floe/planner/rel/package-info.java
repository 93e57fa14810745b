/** Floe's relational operators in Calcite's Enumerable convention, and exact datetime values. */
package dev.floe.planner.rel;
