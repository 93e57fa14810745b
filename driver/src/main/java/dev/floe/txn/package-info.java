/** The connection-bounded transaction: pinning, pending changes with previews, commit, rollback. */
package dev.floe.txn;
