CREATE TYPE "public"."refund_kind" AS ENUM('admin', 'provider', 'dispute', 'duplicate_subscription');--> statement-breakpoint
CREATE TYPE "public"."refund_status" AS ENUM('pending', 'succeeded', 'failed');--> statement-breakpoint
ALTER TYPE "public"."payment_status" ADD VALUE 'refunded';--> statement-breakpoint
CREATE TABLE "admin_audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"admin_id" uuid,
	"admin_email" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"before" jsonb,
	"after" jsonb,
	"ip" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_id" uuid,
	"user_id" uuid NOT NULL,
	"kind" "refund_kind" NOT NULL,
	"status" "refund_status" DEFAULT 'pending' NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" "billing_currency" NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"credits_taken" integer DEFAULT 0 NOT NULL,
	"credits_shortfall" integer DEFAULT 0 NOT NULL,
	"provider_refund_id" text,
	"source_key" text NOT NULL,
	"admin_id" uuid,
	"error" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payment_refunds_provider_refund_id_unique" UNIQUE("provider_refund_id"),
	CONSTRAINT "payment_refunds_source_key_unique" UNIQUE("source_key"),
	CONSTRAINT "payment_refunds_amount_not_negative" CHECK ("payment_refunds"."amount_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "refunded_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_audit_log" ADD CONSTRAINT "admin_audit_log_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_audit_log_created_idx" ON "admin_audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "admin_audit_log_admin_created_idx" ON "admin_audit_log" USING btree ("admin_id","created_at");--> statement-breakpoint
CREATE INDEX "admin_audit_log_action_created_idx" ON "admin_audit_log" USING btree ("action","created_at");--> statement-breakpoint
CREATE INDEX "admin_audit_log_target_idx" ON "admin_audit_log" USING btree ("target_type","target_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_refunds_payment_idx" ON "payment_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payment_refunds_pending_idx" ON "payment_refunds" USING btree ("created_at") WHERE "payment_refunds"."status" = 'pending';--> statement-breakpoint
-- Hand-written: one plan checkout open per user (decision 0051). Older open plan checkouts of a
-- user are closed first (the newest stays open), so the unique index can be built.
UPDATE "checkout_sessions" SET "status" = 'expired'
  WHERE "mode" = 'subscription' AND "status" = 'open' AND "id" NOT IN (
    SELECT DISTINCT ON ("user_id") "id" FROM "checkout_sessions"
      WHERE "mode" = 'subscription' AND "status" = 'open'
      ORDER BY "user_id", "created_at" DESC, "id" DESC
  );--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_one_open_plan_idx" ON "checkout_sessions" USING btree ("user_id")
  WHERE "mode" = 'subscription' AND "status" = 'open';
