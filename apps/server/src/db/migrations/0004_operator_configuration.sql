CREATE TABLE "ai_training" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"system_prompt" text DEFAULT '' NOT NULL,
	"voice_id" text,
	"voice_sample_file" text,
	"voice_sample_original_name" text,
	"voice_sample_size" bigint,
	"voice_sample_content_type" text,
	"voice_sample_uploaded_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_training_singleton" CHECK ("ai_training"."singleton")
);
--> statement-breakpoint
CREATE TABLE "knowledge_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"original_name" text NOT NULL,
	"stored_name" text NOT NULL,
	"size" bigint NOT NULL,
	"upload_date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_passages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"content" text NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', content)) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_keys_name" CHECK ("provider_keys"."name" in ('openai', 'stripeSecret', 'stripePublishable', 'elevenLabs'))
);
--> statement-breakpoint
ALTER TABLE "knowledge_passages" ADD CONSTRAINT "knowledge_passages_document_id_knowledge_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."knowledge_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_documents_upload_date_idx" ON "knowledge_documents" USING btree ("upload_date");--> statement-breakpoint
CREATE INDEX "knowledge_passages_document_idx" ON "knowledge_passages" USING btree ("document_id","position");--> statement-breakpoint
CREATE INDEX "knowledge_passages_tsv_idx" ON "knowledge_passages" USING gin ("tsv");