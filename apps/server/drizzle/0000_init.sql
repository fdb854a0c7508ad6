CREATE TABLE "feature_flags" (
	"feature_name" text PRIMARY KEY NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"unit" text NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "proxy_ips" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" text NOT NULL,
	"ip" text NOT NULL,
	"port" integer NOT NULL,
	"username" text NOT NULL,
	"password" text NOT NULL,
	"endpoint" text NOT NULL,
	"subnet" text NOT NULL,
	"assigned_order_id" uuid,
	"need_rotated" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proxy_ips_port_range" CHECK ("proxy_ips"."port" between 1 and 65535)
);
--> statement-breakpoint
CREATE TABLE "residential_pool" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"bandwidth_limit_mb" bigint DEFAULT 0 NOT NULL,
	"bandwidth_used_mb" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "residential_pool_single_row" CHECK ("residential_pool"."id" = 1),
	CONSTRAINT "residential_pool_non_negative" CHECK ("residential_pool"."bandwidth_limit_mb" >= 0 and "residential_pool"."bandwidth_used_mb" >= 0)
);
--> statement-breakpoint
ALTER TABLE "proxy_ips" ADD CONSTRAINT "proxy_ips_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "proxy_ips_ip_port_key" ON "proxy_ips" USING btree ("ip","port");--> statement-breakpoint
CREATE INDEX "proxy_ips_available_idx" ON "proxy_ips" USING btree ("product_id","created_at") WHERE "proxy_ips"."assigned_order_id" is null and "proxy_ips"."need_rotated" = false;--> statement-breakpoint
CREATE INDEX "proxy_ips_subnet_idx" ON "proxy_ips" USING btree ("subnet");