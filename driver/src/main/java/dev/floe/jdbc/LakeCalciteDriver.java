package dev.floe.jdbc;

import dev.floe.planner.prepare.LakePrepare;
import org.apache.calcite.jdbc.Driver;

/** Calcite's driver, preparing statements with {@link LakePrepare}. Used only by Floe. */
final class LakeCalciteDriver extends Driver {
  LakeCalciteDriver() {
    super(LakePrepare::new);
  }
}
