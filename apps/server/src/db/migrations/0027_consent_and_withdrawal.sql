CREATE TYPE "public"."consent_kind" AS ENUM('plan', 'credits');--> statement-breakpoint
ALTER TYPE "public"."refund_kind" ADD VALUE 'withdrawal';--> statement-breakpoint
CREATE TABLE "checkout_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"checkout_session_id" text NOT NULL,
	"user_id" uuid,
	"kind" "consent_kind" NOT NULL,
	"version" text NOT NULL,
	"text" text NOT NULL,
	"package_id" uuid,
	"plan_id" uuid,
	"amount_minor" integer NOT NULL,
	"currency" "billing_currency" NOT NULL,
	"ip_address" text NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkout_consents_checkout_session_id_unique" UNIQUE("checkout_session_id")
);
--> statement-breakpoint
ALTER TABLE "checkout_consents" ADD CONSTRAINT "checkout_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_consents" ADD CONSTRAINT "checkout_consents_package_id_credit_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."credit_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_consents" ADD CONSTRAINT "checkout_consents_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_consents_user_idx" ON "checkout_consents" USING btree ("user_id");