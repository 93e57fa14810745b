/**
 * The maintenance procedures ({@code CALL} and {@code ALTER TABLE ... EXECUTE}): compaction,
 * snapshot expiry and orphan removal, add_files, branches and tags, and ANALYZE's statistics.
 * {@link dev.floe.command.procedure.Maintenance} dispatches a call to the procedure that runs it.
 */
package dev.floe.command.procedure;
