CREATE TABLE "fan_sittings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_active_at" timestamp with time zone NOT NULL,
	"notice_at" timestamp with time zone NOT NULL,
	"break_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fan_sittings" ADD CONSTRAINT "fan_sittings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;