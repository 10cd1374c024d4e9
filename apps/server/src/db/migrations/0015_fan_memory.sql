CREATE TABLE "fan_memory" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"summary" text,
	"summary_updated_at" timestamp with time zone,
	"summarized_seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "call_id" uuid;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "forgotten" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', content)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "remembered" boolean GENERATED ALWAYS AS (sender = 'user' and content ~* '\m(my|mine|i am|i''m|im|i live|i work|i love|i like|i hate|i have|i''ve|i was|i grew|call me)\M' and content !~ '[?]\s*$') STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "call_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "fan_memory" ADD CONSTRAINT "fan_memory_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_call_id_voice_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."voice_calls"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_messages_remembered_idx" ON "chat_messages" USING btree ("user_id","created_at" DESC NULLS LAST) WHERE "chat_messages"."remembered" and not "chat_messages"."forgotten";--> statement-breakpoint
CREATE INDEX "chat_messages_call_idx" ON "chat_messages" USING btree ("call_id","created_at","seq");--> statement-breakpoint
-- Hand-written:
-- btree_gin lets one GIN index hold the fan and the words of their messages, so long-term recall
-- searches one fan's own words without reading anyone else's. A trusted extension (PostgreSQL
-- 13+); PGlite loads it from @electric-sql/pglite/contrib/btree_gin (src/db/pglite-worker.ts).
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX "chat_messages_recall_idx" ON "chat_messages" USING gin ("user_id", "tsv")
  WHERE "sender" = 'user' AND NOT "forgotten";
