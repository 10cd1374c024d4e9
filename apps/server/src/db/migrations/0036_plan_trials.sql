-- Free trial days on a plan (issue 27 item 4, docs/decisions/0083). The migrator applies every
-- pending migration in one transaction: PostgreSQL 12+ allows ADD VALUE there, but the new value
-- may not be used until that transaction commits, so nothing below names it as an enum
-- (subscribed_until_of compares the status as text).
ALTER TYPE "public"."subscription_status" ADD VALUE IF NOT EXISTS 'trialing';--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "trial_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_trial_days_range" CHECK ("subscription_plans"."trial_days" >= 0 AND "subscription_plans"."trial_days" <= 90);--> statement-breakpoint
-- The rule of isInForce (users/subscription-state.ts): a trialing subscription is in force like
-- an active one (renewing: 'infinity'; set to cancel: until the trial's end).
CREATE OR REPLACE FUNCTION "subscribed_until_of"("status" "subscription_status", "cancel_at_period_end" boolean, "period_end" timestamptz)
RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN "status"::text IN ('active', 'past_due', 'trialing')
    THEN CASE WHEN "cancel_at_period_end" THEN "period_end" ELSE 'infinity'::timestamptz END
  END
$$;
