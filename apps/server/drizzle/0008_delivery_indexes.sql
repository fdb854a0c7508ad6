DROP INDEX "proxy_ips_available_idx";--> statement-breakpoint
CREATE INDEX "payments_order_idx" ON "payments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "proxy_ips_available_idx" ON "proxy_ips" USING btree ("product_id","created_at","id") WHERE "proxy_ips"."assigned_order_id" is null and "proxy_ips"."need_rotated" = false;