/**
 * The scan runtime: task planning on a pinned snapshot, parallel deterministic reading, delete
 * application and conversion of values into Calcite's runtime forms.
 */
package dev.floe.planner.scan;
