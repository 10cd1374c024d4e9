-- Hand-written: a recount of no user does nothing, at once (issue 28, item 5). The voice_calls
-- and chat_messages update triggers (migration 0016) call users_figures_recount_locked with the
-- users whose figures an increment cannot follow, which is almost always none; the recount is
-- dynamic SQL (EXECUTE: planned on every call, a join of three tables with a window), and on
-- PGlite planning it for an empty list cost 20-50 ms per statement: every call minute charged
-- and every call closed paid it while holding the one connection. NULL still means every user.
CREATE OR REPLACE FUNCTION "users_figures_recount_locked"("user_ids" uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality("user_ids") = 0 THEN RETURN; END IF;
  PERFORM 1 FROM "users" WHERE "id" = ANY("user_ids") ORDER BY "id" FOR NO KEY UPDATE;
  PERFORM "users_figures_recount"("user_ids");
END $$;
