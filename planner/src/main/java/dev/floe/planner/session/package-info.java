/**
 * A connection's session as the planner sees it: {@link dev.floe.planner.session.LakeSession}, the
 * interface the driver's transaction implements, with the tables pinned for a statement or
 * transaction and the change staged per table; what the connection keeps across statements (its
 * prepared plans and the scans planned per snapshot); and what belongs to the statement running on
 * a thread (its cancellation, its memory budget and the time spent in each phase).
 */
package dev.floe.planner.session;
