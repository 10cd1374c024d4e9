CREATE TYPE "public"."crisis_category" AS ENUM('self-harm', 'self-harm/intent', 'self-harm/instructions');--> statement-breakpoint
CREATE TYPE "public"."crisis_source" AS ENUM('openai', 'offline');--> statement-breakpoint
CREATE TABLE "crisis_referrals_daily" (
	"day" date PRIMARY KEY NOT NULL,
	"referrals" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site_pages" DROP CONSTRAINT "site_pages_slug";--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "flag_category" "crisis_category";--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "flag_source" "crisis_source";--> statement-breakpoint
CREATE INDEX "chat_messages_flagged_idx" ON "chat_messages" USING btree ("conversation_id") WHERE "chat_messages"."flag_category" is not null;--> statement-breakpoint
ALTER TABLE "site_pages" ADD CONSTRAINT "site_pages_slug" CHECK ("site_pages"."slug" in ('terms', 'privacy', 'refunds', 'safety', 'about', 'contact', 'faq'));