/**
 * The Calcite adapter, in one package as Calcite's own adapters are: folders as schemas, Iceberg
 * tables as SQL tables, the scan and modify nodes with their Enumerable implementations, and the
 * rules that push filters, projections, limits and counts into the scan. {@link
 * dev.floe.planner.adapter.RexToIceberg} is the one translator of SQL conditions into Iceberg
 * expressions, for scans and for optimize's {@code WHERE}.
 */
package dev.floe.planner.adapter;
