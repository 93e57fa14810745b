/**
 * Floe's customization of Calcite's statement preparation: {@link
 * dev.floe.planner.prepare.LakePrepare} and its rules and program, exact temporal alignment,
 * checked arithmetic, Floe's hash join ({@link dev.floe.planner.prepare.HashJoins}), and the watch
 * points that check for a cancel over joins and account the memory of sorts ({@link
 * dev.floe.planner.prepare.WatchPoint}).
 */
package dev.floe.planner.prepare;
