CREATE TABLE "revenue_days" (
	"day" date NOT NULL,
	"currency" "billing_currency" NOT NULL,
	"slot" smallint NOT NULL,
	"credits_minor" bigint DEFAULT 0 NOT NULL,
	"subscription_minor" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "revenue_days_day_currency_slot_pk" PRIMARY KEY("day","currency","slot")
);
--> statement-breakpoint
ALTER TABLE "dashboard_days" DROP COLUMN "revenue_cents";--> statement-breakpoint
ALTER TABLE "dashboard_days" DROP COLUMN "credits_revenue_minor";--> statement-breakpoint
ALTER TABLE "dashboard_days" DROP COLUMN "subscription_revenue_minor";--> statement-breakpoint
-- Hand-written (drizzle cannot express triggers): revenue per currency (docs/decisions/0036).
-- The payments triggers of 0011 now write each successful payment to revenue_days under its own
-- currency instead of adding currencies together in dashboard_days. The trigger definitions are
-- unchanged; their functions are replaced.
DROP FUNCTION "payments_rollup_rows"("payments", int);--> statement-breakpoint
CREATE FUNCTION "payments_rollup_rows"("p" "payments", "sign" int)
RETURNS TABLE ("day" date, "currency" "billing_currency", "credits_minor" bigint, "subscription_minor" bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT "utc_day"(("p")."transaction_date"), ("p")."currency",
    "sign" * CASE WHEN ("p")."kind" = 'credits' THEN ("p")."amount_minor" ELSE 0 END::bigint,
    "sign" * CASE WHEN ("p")."kind" = 'subscription' THEN ("p")."amount_minor" ELSE 0 END::bigint
  WHERE ("p")."status" = 'success'
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "payments_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE "sign" int := TG_ARGV[0]::int;
BEGIN
  INSERT INTO "revenue_days" ("day", "currency", "slot", "credits_minor", "subscription_minor")
    SELECT "r"."day", "r"."currency", floor(random() * 16)::smallint, sum("r"."credits_minor"),
      sum("r"."subscription_minor")
    FROM "changed_rows" "c", "payments_rollup_rows"("c", "sign") "r" GROUP BY "r"."day", "r"."currency"
    ON CONFLICT ("day", "currency", "slot") DO UPDATE SET
      "credits_minor" = "revenue_days"."credits_minor" + excluded."credits_minor",
      "subscription_minor" = "revenue_days"."subscription_minor" + excluded."subscription_minor";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "payments_rollup_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "revenue_days" ("day", "currency", "slot", "credits_minor", "subscription_minor")
    SELECT "r"."day", "r"."currency", floor(random() * 16)::smallint, sum("r"."credits_minor"),
      sum("r"."subscription_minor")
    FROM (SELECT * FROM "payments_rollup_rows"(OLD, -1) UNION ALL SELECT * FROM "payments_rollup_rows"(NEW, 1)) "r"
    GROUP BY "r"."day", "r"."currency"
    HAVING sum("r"."credits_minor") <> 0 OR sum("r"."subscription_minor") <> 0
    ON CONFLICT ("day", "currency", "slot") DO UPDATE SET
      "credits_minor" = "revenue_days"."credits_minor" + excluded."credits_minor",
      "subscription_minor" = "revenue_days"."subscription_minor" + excluded."subscription_minor";
  RETURN NULL;
END $$;--> statement-breakpoint
-- The existing payments, once.
INSERT INTO "revenue_days" ("day", "currency", "slot", "credits_minor", "subscription_minor")
  SELECT "utc_day"("transaction_date"), "currency", 0,
    coalesce(sum("amount_minor") FILTER (WHERE "kind" = 'credits'), 0),
    coalesce(sum("amount_minor") FILTER (WHERE "kind" = 'subscription'), 0)
  FROM "payments" WHERE "status" = 'success' GROUP BY 1, 2;
