CREATE TYPE "public"."billing_currency" AS ENUM('usd', 'eur', 'gbp', 'inr');--> statement-breakpoint
CREATE TYPE "public"."checkout_mode" AS ENUM('payment', 'subscription');--> statement-breakpoint
CREATE TYPE "public"."checkout_status" AS ENUM('open', 'complete', 'expired', 'canceled');--> statement-breakpoint
CREATE TYPE "public"."payment_kind" AS ENUM('credits', 'subscription');--> statement-breakpoint
CREATE TYPE "public"."payment_provider" AS ENUM('stripe', 'sandbox');--> statement-breakpoint
CREATE TYPE "public"."payment_status" AS ENUM('success', 'pending', 'failed');--> statement-breakpoint
CREATE TYPE "public"."plan_interval" AS ENUM('day', 'week', 'month', 'year');--> statement-breakpoint
CREATE TYPE "public"."subscription_event_type" AS ENUM('created', 'updated', 'canceled', 'renewed', 'payment_failed');--> statement-breakpoint
CREATE TYPE "public"."subscription_status" AS ENUM('active', 'canceled', 'past_due', 'unpaid', 'incomplete');--> statement-breakpoint
CREATE TABLE "billing_prices" (
	"price_id" text PRIMARY KEY NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"package_id" uuid,
	"plan_id" uuid,
	"amount_minor" integer NOT NULL,
	"currency" "billing_currency" NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "checkout_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" text NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"mode" "checkout_mode" NOT NULL,
	"user_id" uuid NOT NULL,
	"package_id" uuid,
	"plan_id" uuid,
	"price_id" text,
	"item_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" "billing_currency" NOT NULL,
	"credits" integer,
	"status" "checkout_status" DEFAULT 'open' NOT NULL,
	"payment_status" text DEFAULT 'unpaid' NOT NULL,
	"url" text NOT NULL,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"fulfilled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "checkout_sessions_session_id_unique" UNIQUE("session_id")
);
--> statement-breakpoint
CREATE TABLE "credit_packages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"credits" integer NOT NULL,
	"price_minor" integer NOT NULL,
	"currency" "billing_currency" DEFAULT 'usd' NOT NULL,
	"discount_basis_points" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"stripe_product_id" text,
	"stripe_price_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "credit_packages_credits_positive" CHECK ("credit_packages"."credits" > 0),
	CONSTRAINT "credit_packages_price_not_negative" CHECK ("credit_packages"."price_minor" >= 0),
	CONSTRAINT "credit_packages_discount_range" CHECK ("credit_packages"."discount_basis_points" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "payment_counts" (
	"kind" "payment_kind" NOT NULL,
	"status" "payment_status" NOT NULL,
	"slot" smallint NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "payment_counts_kind_status_slot_pk" PRIMARY KEY("kind","status","slot")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "payment_kind" NOT NULL,
	"user_id" uuid NOT NULL,
	"status" "payment_status" NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" "billing_currency" NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"package_id" uuid,
	"plan_id" uuid,
	"subscription_id" uuid,
	"item_name" text NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"stripe_payment_id" text,
	"invoice_id" text,
	"invoice_number" text,
	"checkout_session_id" text,
	"source_key" text NOT NULL,
	"transaction_date" timestamp with time zone DEFAULT now() NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "payments_source_key_unique" UNIQUE("source_key")
);
--> statement-breakpoint
CREATE TABLE "processed_webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_objects" (
	"id" text PRIMARY KEY NOT NULL,
	"object" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"subscription_id" uuid,
	"plan_id" uuid,
	"plan_name" text NOT NULL,
	"event_type" "subscription_event_type" NOT NULL,
	"status" "subscription_status" NOT NULL,
	"start_date" timestamp with time zone,
	"end_date" timestamp with time zone,
	"amount_minor" integer DEFAULT 0 NOT NULL,
	"currency" "billing_currency" NOT NULL,
	"auto_renew" boolean NOT NULL,
	"provider_subscription_id" text,
	"source_key" text NOT NULL,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_events_source_key_unique" UNIQUE("source_key")
);
--> statement-breakpoint
CREATE TABLE "subscription_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price_minor" integer NOT NULL,
	"currency" "billing_currency" DEFAULT 'usd' NOT NULL,
	"interval" "plan_interval" DEFAULT 'month' NOT NULL,
	"interval_count" integer DEFAULT 1 NOT NULL,
	"features" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"stripe_product_id" text,
	"stripe_price_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "subscription_plans_price_not_negative" CHECK ("subscription_plans"."price_minor" >= 0),
	CONSTRAINT "subscription_plans_interval_count_min" CHECK ("subscription_plans"."interval_count" >= 1),
	CONSTRAINT "subscription_plans_credits_not_negative" CHECK ("subscription_plans"."credits" >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"provider_subscription_id" text NOT NULL,
	"provider_customer_id" text,
	"price_id" text,
	"price_minor" integer NOT NULL,
	"currency" "billing_currency" NOT NULL,
	"status" "subscription_status" NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_subscriptions_provider_subscription_id_unique" UNIQUE("provider_subscription_id")
);
--> statement-breakpoint
ALTER TABLE "billing_prices" ADD CONSTRAINT "billing_prices_package_id_credit_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."credit_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_prices" ADD CONSTRAINT "billing_prices_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_package_id_credit_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."credit_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_package_id_credit_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."credit_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_subscription_id_user_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."user_subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_events" ADD CONSTRAINT "subscription_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_events" ADD CONSTRAINT "subscription_events_subscription_id_user_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."user_subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_events" ADD CONSTRAINT "subscription_events_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD CONSTRAINT "user_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD CONSTRAINT "user_subscriptions_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_prices_package_idx" ON "billing_prices" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "billing_prices_plan_idx" ON "billing_prices" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "checkout_sessions_user_created_idx" ON "checkout_sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "credit_packages_credits_idx" ON "credit_packages" USING btree ("credits");--> statement-breakpoint
CREATE INDEX "payments_kind_date_idx" ON "payments" USING btree ("kind","transaction_date","id");--> statement-breakpoint
CREATE INDEX "payments_kind_status_date_idx" ON "payments" USING btree ("kind","status","transaction_date","id");--> statement-breakpoint
CREATE INDEX "payments_kind_user_date_idx" ON "payments" USING btree ("kind","user_id","transaction_date");--> statement-breakpoint
CREATE INDEX "payments_kind_amount_idx" ON "payments" USING btree ("kind","amount_minor","id");--> statement-breakpoint
CREATE INDEX "payments_kind_credits_idx" ON "payments" USING btree ("kind","credits","id");--> statement-breakpoint
CREATE INDEX "payments_kind_item_idx" ON "payments" USING btree ("kind","item_name","id");--> statement-breakpoint
CREATE INDEX "payments_kind_payment_id_idx" ON "payments" USING btree ("kind","stripe_payment_id","id");--> statement-breakpoint
CREATE INDEX "payments_user_date_idx" ON "payments" USING btree ("user_id","transaction_date");--> statement-breakpoint
CREATE INDEX "subscription_events_timestamp_idx" ON "subscription_events" USING btree ("timestamp","id");--> statement-breakpoint
CREATE INDEX "subscription_events_type_timestamp_idx" ON "subscription_events" USING btree ("event_type","timestamp");--> statement-breakpoint
CREATE INDEX "subscription_events_status_timestamp_idx" ON "subscription_events" USING btree ("status","timestamp");--> statement-breakpoint
CREATE INDEX "subscription_events_user_timestamp_idx" ON "subscription_events" USING btree ("user_id","timestamp");--> statement-breakpoint
CREATE INDEX "subscription_events_amount_idx" ON "subscription_events" USING btree ("amount_minor","id");--> statement-breakpoint
CREATE INDEX "user_subscriptions_user_created_idx" ON "user_subscriptions" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "user_subscriptions_status_idx" ON "user_subscriptions" USING btree ("status","current_period_end");--> statement-breakpoint
CREATE INDEX "user_subscriptions_plan_idx" ON "user_subscriptions" USING btree ("plan_id");--> statement-breakpoint
-- Hand-written (drizzle cannot express triggers): payment_counts follows payments, per statement.
CREATE FUNCTION "payment_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "payment_counts" ("kind", "status", "slot", "n")
    SELECT "kind", "status", floor(random() * 16)::smallint, count(*) FROM "new_rows" GROUP BY "kind", "status"
    ON CONFLICT ("kind", "status", "slot") DO UPDATE SET "n" = "payment_counts"."n" + excluded."n";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "payment_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "payment_counts" ("kind", "status", "slot", "n")
    SELECT "kind", "status", floor(random() * 16)::smallint, -count(*) FROM "old_rows" GROUP BY "kind", "status"
    ON CONFLICT ("kind", "status", "slot") DO UPDATE SET "n" = "payment_counts"."n" + excluded."n";
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "payments_count_insert" AFTER INSERT ON "payments"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "payment_counts_add"();--> statement-breakpoint
CREATE TRIGGER "payments_count_delete" AFTER DELETE ON "payments"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "payment_counts_remove"();--> statement-breakpoint
CREATE TRIGGER "payments_count_update_old" AFTER UPDATE ON "payments"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "payment_counts_remove"();--> statement-breakpoint
CREATE TRIGGER "payments_count_update_new" AFTER UPDATE ON "payments"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "payment_counts_add"();
