CREATE TABLE "proxy_subnet_counts" (
	"product_id" text NOT NULL,
	"subnet" text NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"assigned" integer DEFAULT 0 NOT NULL,
	"burnt" integer DEFAULT 0 NOT NULL,
	"available" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "proxy_subnet_counts_product_id_subnet_pk" PRIMARY KEY("product_id","subnet")
);
--> statement-breakpoint
ALTER TABLE "proxy_subnet_counts" ADD CONSTRAINT "proxy_subnet_counts_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "proxy_subnet_counts_network_idx" ON "proxy_subnet_counts" USING btree ("product_id",("subnet"::cidr));--> statement-breakpoint
CREATE INDEX "proxy_ips_burnt_idx" ON "proxy_ips" USING btree ("product_id",("ip"::inet),"port") WHERE "proxy_ips"."need_rotated";--> statement-breakpoint
-- The subnets' counts are kept as the pool's are (migration 0021): each statement that adds, removes or moves IPs adds
-- its difference per subnet in its own transaction, subnets raised in order so two statements never wait on each other.
CREATE FUNCTION count_proxy_subnets() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added CONSTANT text := 'SELECT product_id, subnet, assigned_order_id, need_rotated, 1 AS sign FROM changed_new';
  removed CONSTANT text := 'SELECT product_id, subnet, assigned_order_id, need_rotated, -1 AS sign FROM changed_old';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM proxy_subnet_counts;
    RETURN NULL;
  END IF;
  EXECUTE format($query$
    INSERT INTO proxy_subnet_counts AS c (product_id, subnet, total, assigned, burnt, available)
    SELECT * FROM (
      SELECT product_id, subnet,
        sum(sign)::int AS total,
        sum(CASE WHEN assigned_order_id IS NOT NULL THEN sign ELSE 0 END)::int AS assigned,
        sum(CASE WHEN need_rotated THEN sign ELSE 0 END)::int AS burnt,
        sum(CASE WHEN assigned_order_id IS NULL AND NOT need_rotated THEN sign ELSE 0 END)::int AS available
      FROM (%s) AS changed
      GROUP BY product_id, subnet
    ) AS delta
    WHERE (total, assigned, burnt, available) <> (0, 0, 0, 0)
    ORDER BY product_id, subnet
    ON CONFLICT (product_id, subnet) DO UPDATE SET
      total = c.total + excluded.total,
      assigned = c.assigned + excluded.assigned,
      burnt = c.burnt + excluded.burnt,
      available = c.available + excluded.available
  $query$, CASE TG_OP WHEN 'INSERT' THEN added WHEN 'DELETE' THEN removed ELSE added || ' UNION ALL ' || removed END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER proxy_ips_subnets_counted_insert AFTER INSERT ON proxy_ips REFERENCING NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION count_proxy_subnets();
--> statement-breakpoint
CREATE TRIGGER proxy_ips_subnets_counted_update AFTER UPDATE ON proxy_ips
  REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION count_proxy_subnets();
--> statement-breakpoint
CREATE TRIGGER proxy_ips_subnets_counted_delete AFTER DELETE ON proxy_ips REFERENCING OLD TABLE AS changed_old
  FOR EACH STATEMENT EXECUTE FUNCTION count_proxy_subnets();
--> statement-breakpoint
CREATE TRIGGER proxy_ips_subnets_counted_truncate AFTER TRUNCATE ON proxy_ips
  FOR EACH STATEMENT EXECUTE FUNCTION count_proxy_subnets();
--> statement-breakpoint
-- The first counts, read once under the same hold on writes as migration 0021's; the time on a big shop is in
-- CHANGELOG's upgrade notes.
INSERT INTO proxy_subnet_counts (product_id, subnet, total, assigned, burnt, available)
SELECT product_id, subnet, count(*)::int, count(assigned_order_id)::int, (count(*) FILTER (WHERE need_rotated))::int,
  (count(*) FILTER (WHERE assigned_order_id IS NULL AND NOT need_rotated))::int
FROM proxy_ips
GROUP BY product_id, subnet;
