CREATE TABLE "fan_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"to_address" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "fan_emails_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "fan_emails_status" CHECK ("fan_emails"."status" in ('pending', 'sending', 'sent', 'failed', 'skipped')),
	CONSTRAINT "fan_emails_recipient" CHECK ("fan_emails"."user_id" is not null or "fan_emails"."to_address" is not null)
);
--> statement-breakpoint
CREATE TABLE "mail_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"unsubscribed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fan_emails" ADD CONSTRAINT "fan_emails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_preferences" ADD CONSTRAINT "mail_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fan_emails_due_idx" ON "fan_emails" USING btree ("next_attempt_at","created_at") WHERE "fan_emails"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "fan_emails_user_kind_idx" ON "fan_emails" USING btree ("user_id","kind","created_at");