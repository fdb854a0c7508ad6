CREATE TABLE "residential_usage_daily" (
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	"used_kb" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "residential_usage_daily_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "residential_usage_daily" ADD CONSTRAINT "residential_usage_daily_user_id_residential_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."residential_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "residential_usage_daily_day_idx" ON "residential_usage_daily" USING btree ("day");