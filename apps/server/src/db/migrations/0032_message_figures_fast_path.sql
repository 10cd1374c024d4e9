-- A message newer than every message of its user (every chat send and call turn) needs neither
-- neighbour looked up: its predecessor is the user's last_message_at and it has no successor. One
-- UPDATE counts it, taking the user's row lock as the general path does; under a concurrent
-- message of the same user the UPDATE waits for that lock and tests its condition again on the
-- committed row, so a message that turns out not to be the newest falls through to the general
-- path (issue 28 item 5: a send stored two messages through four statements each).
CREATE OR REPLACE FUNCTION "chat_messages_figures"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "m" "chat_messages" := CASE WHEN TG_OP = 'INSERT' THEN NEW ELSE OLD END;
  "sign" int := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
  "prev" timestamptz;
  "next" timestamptz;
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "users" SET
      "interaction_micros" = "interaction_micros" + "chat_gap_micros"("last_message_at", "m"."created_at")
        + CASE WHEN "m"."sender" = 'user' THEN 30000000 ELSE 0 END,
      "last_message_at" = "m"."created_at"
    WHERE "id" = "m"."user_id" AND ("last_message_at" IS NULL OR "last_message_at" < "m"."created_at");
    IF FOUND THEN RETURN "m"; END IF;
  END IF;
  PERFORM 1 FROM "users" WHERE "id" = "m"."user_id" FOR NO KEY UPDATE;
  IF NOT FOUND THEN RETURN "m"; END IF; -- the user is being deleted
  SELECT "created_at" INTO "prev" FROM "chat_messages"
    WHERE "user_id" = "m"."user_id" AND ("created_at", "seq") < ("m"."created_at", "m"."seq")
    ORDER BY "created_at" DESC, "seq" DESC LIMIT 1;
  SELECT "created_at" INTO "next" FROM "chat_messages"
    WHERE "user_id" = "m"."user_id" AND ("created_at", "seq") > ("m"."created_at", "m"."seq")
    ORDER BY "created_at", "seq" LIMIT 1;
  UPDATE "users" SET
    "interaction_micros" = "interaction_micros" + "sign" * (
      "chat_gap_micros"("prev", "m"."created_at") + "chat_gap_micros"("m"."created_at", "next")
      - "chat_gap_micros"("prev", "next") + CASE WHEN "m"."sender" = 'user' THEN 30000000 ELSE 0 END),
    "last_message_at" = CASE
      WHEN "sign" > 0 THEN greatest("last_message_at", "m"."created_at")
      WHEN "next" IS NULL THEN "prev"
      ELSE "last_message_at" END
  WHERE "id" = "m"."user_id";
  RETURN "m";
END $$;
