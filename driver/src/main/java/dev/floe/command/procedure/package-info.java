/**
 * The maintenance procedures ({@code CALL} and {@code ALTER TABLE ... EXECUTE}): compaction,
 * snapshot expiry and orphan removal, add_files, branches and tags, and ANALYZE's statistics.
 * {@link dev.floe.command.procedure.Maintenance} dispatches a call to the procedure that runs it.
 * Optimize's {@code WHERE} is planned as the query {@code SELECT * FROM t WHERE ...} and translated
 * into an Iceberg expression by the scans' translator, {@link
 * dev.floe.planner.adapter.RexToIceberg}.
 */
package dev.floe.command.procedure;
