CREATE TABLE "trial_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" text NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"sitting" jsonb,
	"claimed_by" uuid,
	"claimed_at" timestamp with time zone,
	CONSTRAINT "trial_conversations_device_id_unique" UNIQUE("device_id")
);
--> statement-breakpoint
CREATE TABLE "trial_daily_usage" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "trial_daily_usage_scope_key_day_pk" PRIMARY KEY("scope","key","day")
);
--> statement-breakpoint
CREATE TABLE "trial_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trial_id" uuid NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "trial_messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sender" "chat_sender" NOT NULL,
	"product_kind" "product_message_kind",
	"content" text NOT NULL,
	"flag_category" "crisis_category",
	"flag_source" "crisis_source",
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trial_conversations" ADD CONSTRAINT "trial_conversations_claimed_by_users_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_messages" ADD CONSTRAINT "trial_messages_trial_id_trial_conversations_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trial_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trial_conversations_last_message_idx" ON "trial_conversations" USING btree ("last_message_at");--> statement-breakpoint
CREATE INDEX "trial_messages_trial_seq_idx" ON "trial_messages" USING btree ("trial_id","seq");