CREATE TABLE "provider_key_tests" (
	"name" text PRIMARY KEY NOT NULL,
	"key_digest" text NOT NULL,
	"ok" boolean NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"tested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_key_tests_name" CHECK ("provider_key_tests"."name" in ('openai', 'stripeSecret', 'elevenLabs'))
);
