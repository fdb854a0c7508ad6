-- The admin's customer search by the start of an e-mail or a name. Plain CREATE INDEX (drizzle's migrator runs in a
-- transaction, where CONCURRENTLY is refused): writes to users wait while each is built, reads go on; the times on a big
-- shop are in CHANGELOG's upgrade notes.
CREATE INDEX "users_email_pattern_idx" ON "users" USING btree ("email" text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "users_name_pattern_idx" ON "users" USING btree (lower("name") text_pattern_ops);
