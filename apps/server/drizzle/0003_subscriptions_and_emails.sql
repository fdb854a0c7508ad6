CREATE TABLE "email_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dedupe_key" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "email_outbox_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "sandbox_clock" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"now" timestamp with time zone NOT NULL,
	CONSTRAINT "sandbox_clock_single_row" CHECK ("sandbox_clock"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "grace_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reminded_for" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "email_outbox_unsent_idx" ON "email_outbox" USING btree ("created_at") WHERE "email_outbox"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "orders_due_idx" ON "orders" USING btree ("expires_at") WHERE "orders"."status" in ('delivered', 'processing');