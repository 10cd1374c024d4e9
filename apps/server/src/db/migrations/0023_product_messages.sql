CREATE TYPE "public"."product_message_kind" AS ENUM('ai-notice', 'break-reminder', 'crisis-support');--> statement-breakpoint
ALTER TYPE "public"."chat_sender" ADD VALUE 'product';--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "product_kind" "product_message_kind";