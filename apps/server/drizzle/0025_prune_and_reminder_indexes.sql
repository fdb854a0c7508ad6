-- The renewal reminder's claim (orders not yet reminded of their period end) and the periodic job's pruning (sent
-- e-mails, handled webhook events, expired sessions and verifications, each by the time that ages it). Plain CREATE INDEX
-- (drizzle's migrator runs each migration in a transaction, where CONCURRENTLY is refused): writes to each table wait
-- while its index is built, reads go on; the times on a big shop are in CHANGELOG's upgrade notes.
CREATE INDEX "email_outbox_sent_idx" ON "email_outbox" USING btree ("sent_at") WHERE "email_outbox"."sent_at" is not null;--> statement-breakpoint
CREATE INDEX "orders_remind_idx" ON "orders" USING btree ("expires_at") WHERE "orders"."status" = 'delivered' and not "orders"."cancelled" and not "orders"."payment_failed" and "orders"."reminded_for" is distinct from "orders"."expires_at";--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "verifications_expires_idx" ON "verifications" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "webhook_events_received_idx" ON "webhook_events" USING btree ("received_at");
