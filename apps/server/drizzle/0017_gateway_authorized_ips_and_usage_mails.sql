CREATE TABLE "authorized_ips" (
	"ip" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_preferences" (
	"user_id" text PRIMARY KEY NOT NULL,
	"usage_emails" boolean DEFAULT true NOT NULL,
	"authorized_ips_only" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "residential_accounts" ADD COLUMN "usage_mailed_80_at_kb" bigint;--> statement-breakpoint
ALTER TABLE "residential_accounts" ADD COLUMN "usage_mailed_100_at_kb" bigint;--> statement-breakpoint
ALTER TABLE "authorized_ips" ADD CONSTRAINT "authorized_ips_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_preferences" ADD CONSTRAINT "customer_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "authorized_ips_user_id_idx" ON "authorized_ips" USING btree ("user_id");