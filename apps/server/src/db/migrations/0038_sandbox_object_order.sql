-- Insertion order of the sandbox's Stripe objects (decision 0094 phase 2): the emulator lists them oldest first,
-- and objects made in one transaction share its now(). Existing rows are numbered by the sequence.
ALTER TABLE "sandbox_objects" ADD COLUMN "seq" bigserial NOT NULL;