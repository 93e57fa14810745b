package dev.floe.tck.fuzz;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Shrinks a failing history to a minimal one by delta debugging (Zeller's ddmin over the steps): a
 * smaller history is kept when replaying it on a fresh lake and a fresh reference shows the same
 * difference (the same oracle and kind) at the same check. Then the check itself is simplified the
 * same way where it offers simpler forms.
 */
final class Shrinker {
  private final Path work;
  private int replays;
  private final int maxReplays;

  Shrinker(Path work, int maxReplays) {
    this.work = work;
    this.maxReplays = maxReplays;
  }

  int replays() {
    return replays;
  }

  /** The difference replaying {@code steps} then {@code check} (if any) shows; null if none. */
  Difference replay(List<Step> steps, Oracles.Check check) {
    replays++;
    Path lake = work.resolve("shrink-" + replays);
    try (Runner r = new Runner(lake)) {
      for (Step step : steps) {
        try {
          if (step.run(r)) {
            r.recordVersion(step);
          }
        } catch (Difference d) {
          return d;
        }
      }
      if (check != null) {
        check.run(r);
      }
      return null;
    } catch (Difference d) {
      return d;
    } catch (SQLException | RuntimeException e) {
      return null; // not a valid history any more
    }
  }

  private boolean reproduces(List<Step> steps, Oracles.Check check, String signature) {
    if (replays >= maxReplays) {
      return false;
    }
    Difference d = replay(steps, check);
    return d != null && d.signature().equals(signature);
  }

  /** The smallest history (by ddmin) that still shows the difference. */
  List<Step> shrink(List<Step> history, Oracles.Check check, String signature) {
    List<Step> steps = new ArrayList<>(history);
    int n = 2;
    while (steps.size() >= 2) {
      int chunk = (steps.size() + n - 1) / n;
      boolean reduced = false;
      for (int start = 0; start < steps.size(); start += chunk) {
        List<Step> complement = new ArrayList<>(steps.subList(0, start));
        complement.addAll(steps.subList(Math.min(steps.size(), start + chunk), steps.size()));
        if (!complement.isEmpty() && reproduces(complement, check, signature)) {
          steps = complement;
          n = Math.max(n - 1, 2);
          reduced = true;
          break;
        }
      }
      if (!reduced) {
        if (n >= steps.size()) {
          break;
        }
        n = Math.min(steps.size(), n * 2);
      }
    }
    return steps;
  }

  /** Each step replaced, while that still shows the difference, by a smaller form of it. */
  List<Step> simplifySteps(List<Step> history, Oracles.Check check, String signature) {
    List<Step> steps = new ArrayList<>(history);
    boolean progress = true;
    while (progress && replays < maxReplays) {
      progress = false;
      for (int i = 0; i < steps.size() && !progress; i++) {
        for (Step smaller : steps.get(i).simpler()) {
          List<Step> candidate = new ArrayList<>(steps);
          candidate.set(i, smaller);
          if (reproduces(candidate, check, signature)) {
            steps = candidate;
            progress = true;
            break;
          }
        }
      }
    }
    return steps;
  }

  /** A simpler check that still shows the difference after the history, or the check itself. */
  Oracles.Check simplify(List<Step> steps, Oracles.Check check, String signature) {
    Oracles.Check best = check;
    boolean progress = true;
    while (progress) {
      progress = false;
      for (Oracles.Check simpler : Simplify.of(best)) {
        if (reproduces(steps, simpler, signature)) {
          best = simpler;
          progress = true;
          break;
        }
      }
    }
    return best;
  }
}
