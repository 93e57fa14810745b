/**
 * DML translation: table modifications become data files, delete files and one staged Iceberg
 * change per table, with assignment checks and cleanup of every file a failed statement wrote.
 */
package dev.floe.planner.dml;
