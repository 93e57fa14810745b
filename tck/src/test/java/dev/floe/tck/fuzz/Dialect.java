package dev.floe.tck.fuzz;

/** The two SQL dialects a statement is written in: Floe's and the DuckDB reference's. */
enum Dialect {
  FLOE,
  DUCK
}
