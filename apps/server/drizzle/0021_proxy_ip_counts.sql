CREATE TABLE "proxy_ip_counts" (
	"product_id" text PRIMARY KEY NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"assigned" integer DEFAULT 0 NOT NULL,
	"burnt" integer DEFAULT 0 NOT NULL,
	"available" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proxy_ip_counts" ADD CONSTRAINT "proxy_ip_counts_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Every statement that adds, removes or changes IPs adds its difference to the product's counts in the same transaction,
-- whichever code path made it. Products are raised in id order so two statements never wait on each other's rows, and a
-- statement that moved nothing counted (an endpoint edit, a claim given back within itself) takes no lock at all.
CREATE FUNCTION count_proxy_ips() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added CONSTANT text := 'SELECT product_id, assigned_order_id, need_rotated, 1 AS sign FROM changed_new';
  removed CONSTANT text := 'SELECT product_id, assigned_order_id, need_rotated, -1 AS sign FROM changed_old';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE proxy_ip_counts SET total = 0, assigned = 0, burnt = 0, available = 0;
    RETURN NULL;
  END IF;
  EXECUTE format($query$
    INSERT INTO proxy_ip_counts AS c (product_id, total, assigned, burnt, available)
    SELECT * FROM (
      SELECT product_id,
        sum(sign)::int AS total,
        sum(CASE WHEN assigned_order_id IS NOT NULL THEN sign ELSE 0 END)::int AS assigned,
        sum(CASE WHEN need_rotated THEN sign ELSE 0 END)::int AS burnt,
        sum(CASE WHEN assigned_order_id IS NULL AND NOT need_rotated THEN sign ELSE 0 END)::int AS available
      FROM (%s) AS changed
      GROUP BY product_id
    ) AS delta
    WHERE (total, assigned, burnt, available) <> (0, 0, 0, 0)
    ORDER BY product_id
    ON CONFLICT (product_id) DO UPDATE SET
      total = c.total + excluded.total,
      assigned = c.assigned + excluded.assigned,
      burnt = c.burnt + excluded.burnt,
      available = c.available + excluded.available
  $query$, CASE TG_OP WHEN 'INSERT' THEN added WHEN 'DELETE' THEN removed ELSE added || ' UNION ALL ' || removed END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER proxy_ips_counted_insert AFTER INSERT ON proxy_ips REFERENCING NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION count_proxy_ips();
--> statement-breakpoint
CREATE TRIGGER proxy_ips_counted_update AFTER UPDATE ON proxy_ips
  REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION count_proxy_ips();
--> statement-breakpoint
CREATE TRIGGER proxy_ips_counted_delete AFTER DELETE ON proxy_ips REFERENCING OLD TABLE AS changed_old
  FOR EACH STATEMENT EXECUTE FUNCTION count_proxy_ips();
--> statement-breakpoint
CREATE TRIGGER proxy_ips_counted_truncate AFTER TRUNCATE ON proxy_ips
  FOR EACH STATEMENT EXECUTE FUNCTION count_proxy_ips();
--> statement-breakpoint
-- The first counts. Creating the triggers holds off writes to proxy_ips (reads go on) until this migration commits, so no
-- change is missed or counted twice; the pool is counted once, the time written in CHANGELOG's upgrade notes.
INSERT INTO proxy_ip_counts (product_id, total, assigned, burnt, available)
SELECT product_id, count(*)::int, count(assigned_order_id)::int, (count(*) FILTER (WHERE need_rotated))::int,
  (count(*) FILTER (WHERE assigned_order_id IS NULL AND NOT need_rotated))::int
FROM proxy_ips
GROUP BY product_id;
