package dev.floe.planner.adapter;

import dev.floe.planner.name.TableVersion;
import dev.floe.planner.scan.MetadataScan;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A table name that is more than a folder: a metadata table ({@code orders$snapshots}, Trino's
 * spelling), a table at a past version (the name followed by its version clause, as time travel
 * writes it, see {@link TableVersion#appendTo}), or both.
 *
 * @param table the data table's own name
 * @param metadata the metadata table's name after {@code $}, or null for the data table
 * @param version the version, or null for the snapshot pinned for the statement
 */
record TableReference(String table, @Nullable String metadata, @Nullable TableVersion version) {
  /** The reference a name spells, or null when it is a plain table name. */
  static @Nullable TableReference parse(String name) {
    TableVersion.Versioned versioned = TableVersion.split(name);
    String rest = versioned.name();
    int dollar = rest.lastIndexOf('$');
    if (dollar > 0 && dollar < rest.length() - 1) {
      return new TableReference(
          rest.substring(0, dollar), rest.substring(dollar + 1), versioned.version());
    }
    return versioned.version() == null ? null : new TableReference(rest, null, versioned.version());
  }

  /** The metadata table named, or null when the name is not one (or names none). */
  MetadataScan.@Nullable Kind kind() {
    return metadata == null ? null : MetadataScan.Kind.of(metadata);
  }

  /** The name spelled with the data table's name as found. */
  String spelled(String foundTable) {
    String name =
        foundTable + (metadata == null ? "" : "$" + metadata.toLowerCase(java.util.Locale.ROOT));
    return version == null ? name : version.appendTo(name);
  }
}
