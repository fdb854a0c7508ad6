ALTER TABLE "proxy_users" ADD COLUMN "usage_mailed_80_key" text;--> statement-breakpoint
ALTER TABLE "proxy_users" ADD COLUMN "usage_mailed_100_key" text;