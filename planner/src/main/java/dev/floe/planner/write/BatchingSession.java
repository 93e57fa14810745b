package dev.floe.planner.write;

import dev.floe.planner.session.LakeSession;
import org.checkerframework.checker.nullness.qual.Nullable;

/** A session that can hold back the INSERT rows of a PreparedStatement batch. */
public interface BatchingSession extends LakeSession {
  /**
   * Where INSERT rows go while a PreparedStatement batch runs, to be written once at its end; null
   * outside a batch, when each statement writes its own files.
   */
  @Nullable InsertBatch insertBatch();
}
