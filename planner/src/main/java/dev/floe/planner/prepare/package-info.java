/** Floe's customization of Calcite's statement preparation. */
package dev.floe.planner.prepare;
