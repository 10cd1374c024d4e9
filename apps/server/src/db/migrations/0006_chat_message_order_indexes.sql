DROP INDEX "chat_messages_user_created_idx";--> statement-breakpoint
DROP INDEX "chat_messages_conversation_created_idx";--> statement-breakpoint
CREATE INDEX "chat_messages_user_created_seq_idx" ON "chat_messages" USING btree ("user_id","created_at","seq");--> statement-breakpoint
CREATE INDEX "chat_messages_conversation_created_seq_idx" ON "chat_messages" USING btree ("conversation_id","created_at","seq");