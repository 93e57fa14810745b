/** Planner rules that push filters, projections and limits into Floe scans. */
package dev.floe.planner.rules;
