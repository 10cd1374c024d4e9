ALTER TYPE "public"."payment_status" ADD VALUE 'credited';--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD COLUMN "plan_change_key" text;--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD COLUMN "plan_change_started_at" timestamp with time zone;