-- The end of a subscription's free trial (issue 27 item 4, decision 0083): its first invoice was $0.
ALTER TABLE "user_subscriptions" ADD COLUMN "trial_end" timestamp with time zone;