CREATE TABLE "site_pages" (
	"slug" text PRIMARY KEY NOT NULL,
	"content" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_pages_slug" CHECK ("site_pages"."slug" in ('terms', 'privacy', 'refunds', 'about', 'contact', 'faq'))
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "reply_failed" boolean DEFAULT false NOT NULL;