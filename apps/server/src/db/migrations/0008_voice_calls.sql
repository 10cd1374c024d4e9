CREATE TYPE "public"."voice_call_end_reason" AS ENUM('hangup', 'dropped', 'credits', 'replaced', 'server');--> statement-breakpoint
CREATE TABLE "voice_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"duration_seconds" integer DEFAULT 0 NOT NULL,
	"minutes_charged" integer DEFAULT 0 NOT NULL,
	"credits_per_minute" integer NOT NULL,
	"credits_consumed" integer DEFAULT 0 NOT NULL,
	"end_reason" "voice_call_end_reason",
	"reported_duration_seconds" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voice_calls_credits_not_negative" CHECK ("voice_calls"."credits_consumed" >= 0)
);
--> statement-breakpoint
ALTER TABLE "voice_calls" ADD CONSTRAINT "voice_calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "voice_calls_user_started_idx" ON "voice_calls" USING btree ("user_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "voice_calls_started_at_idx" ON "voice_calls" USING btree ("started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "voice_calls_one_open_per_user" ON "voice_calls" USING btree ("user_id") WHERE "voice_calls"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "voice_calls_open_idx" ON "voice_calls" USING btree ("started_at") WHERE "voice_calls"."ended_at" is null;