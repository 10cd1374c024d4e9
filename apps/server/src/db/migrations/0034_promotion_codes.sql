CREATE TYPE "public"."promotion_applies_to" AS ENUM('packages', 'plans', 'both');--> statement-breakpoint
CREATE TYPE "public"."promotion_kind" AS ENUM('percent', 'amount');--> statement-breakpoint
CREATE TABLE "promotion_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"kind" "promotion_kind" NOT NULL,
	"percent_basis_points" integer,
	"amount_off_minor" integer,
	"currency" "billing_currency",
	"applies_to" "promotion_applies_to" NOT NULL,
	"max_redemptions" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"stripe_coupon_id" text,
	"stripe_promotion_code_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotion_codes_code_unique" UNIQUE("code"),
	CONSTRAINT "promotion_codes_amount_shape" CHECK (("promotion_codes"."kind" = 'percent' and "promotion_codes"."percent_basis_points" between 1 and 9999 and "promotion_codes"."amount_off_minor" is null)
        or ("promotion_codes"."kind" = 'amount' and "promotion_codes"."amount_off_minor" > 0 and "promotion_codes"."currency" is not null and "promotion_codes"."percent_basis_points" is null)),
	CONSTRAINT "promotion_codes_max_redemptions_positive" CHECK ("promotion_codes"."max_redemptions" is null or "promotion_codes"."max_redemptions" > 0)
);
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "promotion_code_id" uuid;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "promotion_code" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "discount_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "discount_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "promotion_code" text;--> statement-breakpoint
CREATE INDEX "promotion_codes_created_idx" ON "promotion_codes" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "checkout_sessions_promotion_code_idx" ON "checkout_sessions" USING btree ("promotion_code_id","user_id");