-- A user's current subscription is their newest by the provider's creation time; two created in
-- the same second (a Stripe test clock, a quick resubscribe) were told apart by nothing, so the
-- screens and users.subscribed_until could each pick a different row. Ties now go to the one in
-- force (renewing before canceling), then to the id, the same order as latestSubscriptions().
CREATE OR REPLACE FUNCTION "users_subscription_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" "u" SET "subscribed_until" = "c"."until"
    FROM (
      SELECT "ids"."user_id", (
        SELECT "subscribed_until_of"("s"."status", "s"."cancel_at_period_end", "s"."current_period_end")
        FROM "user_subscriptions" "s" WHERE "s"."user_id" = "ids"."user_id"
        ORDER BY "s"."created_at" DESC,
          "subscribed_until_of"("s"."status", "s"."cancel_at_period_end", "s"."current_period_end") DESC NULLS LAST,
          "s"."id" DESC
        LIMIT 1
      ) AS "until"
      FROM (SELECT DISTINCT "user_id" FROM "changed_rows") "ids"
    ) "c"
    WHERE "u"."id" = "c"."user_id" AND "u"."subscribed_until" IS DISTINCT FROM "c"."until";
  RETURN NULL;
END $$;
