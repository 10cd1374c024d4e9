ALTER TYPE "public"."voice_call_end_reason" ADD VALUE 'session';--> statement-breakpoint
CREATE TABLE "voice_daily_usage" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"synthesized_characters" integer DEFAULT 0 NOT NULL,
	"llm_calls" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "voice_daily_usage_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "voice_daily_usage" ADD CONSTRAINT "voice_daily_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written:
-- A session's end is announced at commit to every instance, which ends the live call it opened
-- (docs/decisions/0041-calls-end-with-their-account.md): "user:<id>" when every token of the
-- account ends (password change or reset, deactivation), "token:<jti>" on a logout.
CREATE FUNCTION "notify_session_ended"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'ended_tokens' THEN
    PERFORM pg_notify('session_ended', 'token:' || NEW."jti"::text);
  ELSE
    PERFORM pg_notify('session_ended', 'user:' || NEW."id"::text);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_session_ended" AFTER UPDATE OF "token_version", "is_active" ON "users"
  FOR EACH ROW WHEN (
    OLD."token_version" IS DISTINCT FROM NEW."token_version" OR (OLD."is_active" AND NOT NEW."is_active")
  ) EXECUTE FUNCTION "notify_session_ended"();--> statement-breakpoint
CREATE TRIGGER "ended_tokens_session_ended" AFTER INSERT ON "ended_tokens"
  FOR EACH ROW EXECUTE FUNCTION "notify_session_ended"();--> statement-breakpoint
-- A call closed anywhere (a newer call replacing it, POST /end on another instance) is announced
-- at commit, so the instance holding its socket closes it at once instead of at its next minute.
CREATE FUNCTION "notify_voice_call_closed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('voice_call_closed', NEW."id"::text);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "voice_calls_closed" AFTER UPDATE OF "ended_at" ON "voice_calls"
  FOR EACH ROW WHEN (OLD."ended_at" IS NULL AND NEW."ended_at" IS NOT NULL)
  EXECUTE FUNCTION "notify_voice_call_closed"();
