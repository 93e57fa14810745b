/**
 * The Calcite adapter, in one package as Calcite's own adapters are: folders as schemas, Iceberg
 * tables as SQL tables, the scan and modify nodes with their Enumerable implementations, and the
 * rules that push filters, projections, limits and counts into the scan.
 */
package dev.floe.planner.adapter;
