CREATE TABLE "ip_replacement_counts" (
	"product_id" text PRIMARY KEY NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"blocked" integer DEFAULT 0 NOT NULL,
	"slow" integer DEFAULT 0 NOT NULL,
	"no_connect" integer DEFAULT 0 NOT NULL,
	"other" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ip_replacement_flags" (
	"product_id" text NOT NULL,
	"subnet" text NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "ip_replacement_flags_product_id_subnet_user_id_pk" PRIMARY KEY("product_id","subnet","user_id")
);
--> statement-breakpoint
CREATE TABLE "ip_replacement_subnets" (
	"product_id" text NOT NULL,
	"subnet" text NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"blocked" integer DEFAULT 0 NOT NULL,
	"slow" integer DEFAULT 0 NOT NULL,
	"no_connect" integer DEFAULT 0 NOT NULL,
	"other" integer DEFAULT 0 NOT NULL,
	"blocked_customers" integer DEFAULT 0 NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ip_replacement_subnets_product_id_subnet_pk" PRIMARY KEY("product_id","subnet")
);
--> statement-breakpoint
CREATE TABLE "ip_replacements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"product_id" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"old_ip_id" uuid NOT NULL,
	"old_address" text NOT NULL,
	"old_subnet" text NOT NULL,
	"new_ip_id" uuid,
	"new_address" text,
	"period_end" timestamp with time zone NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "ip_replacements_done_has_new" CHECK (("ip_replacements"."status" = 'done') = ("ip_replacements"."new_ip_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "ip_replacement_counts" ADD CONSTRAINT "ip_replacement_counts_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_replacement_flags" ADD CONSTRAINT "ip_replacement_flags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_replacement_subnets" ADD CONSTRAINT "ip_replacement_subnets_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_replacements" ADD CONSTRAINT "ip_replacements_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_replacements" ADD CONSTRAINT "ip_replacements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ip_replacements" ADD CONSTRAINT "ip_replacements_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ip_replacement_subnets_flagged_idx" ON "ip_replacement_subnets" USING btree ("product_id","blocked_customers" desc,"total" desc,"subnet");--> statement-breakpoint
CREATE INDEX "ip_replacements_order_idx" ON "ip_replacements" USING btree ("order_id","requested_at","id");--> statement-breakpoint
CREATE INDEX "ip_replacements_period_idx" ON "ip_replacements" USING btree ("order_id","period_end");--> statement-breakpoint
CREATE INDEX "ip_replacements_user_idx" ON "ip_replacements" USING btree ("user_id","product_id");--> statement-breakpoint
CREATE INDEX "ip_replacements_waiting_idx" ON "ip_replacements" USING btree ("product_id","requested_at","id") WHERE "ip_replacements"."status" = 'waiting';--> statement-breakpoint
CREATE UNIQUE INDEX "ip_replacements_waiting_ip_key" ON "ip_replacements" USING btree ("old_ip_id") WHERE "ip_replacements"."status" = 'waiting';