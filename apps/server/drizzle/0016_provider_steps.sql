CREATE TABLE "provider_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"detail" jsonb NOT NULL,
	"claim" uuid NOT NULL,
	"claimed_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_steps_subject_id_unique" UNIQUE("subject_id")
);
--> statement-breakpoint
CREATE INDEX "provider_steps_due_idx" ON "provider_steps" USING btree ("claimed_until");