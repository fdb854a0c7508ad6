-- Every statement that adds, removes or changes IPs of an order raises that order's proxies_version (once per statement),
-- so an instance that keeps an order's endpoint list knows when it is stale, whichever code path made the change.
CREATE FUNCTION bump_order_proxies_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE orders SET proxies_version = proxies_version + 1
    WHERE id IN (SELECT assigned_order_id FROM changed_new WHERE assigned_order_id IS NOT NULL);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE orders SET proxies_version = proxies_version + 1
    WHERE id IN (SELECT assigned_order_id FROM changed_old WHERE assigned_order_id IS NOT NULL);
  ELSE
    UPDATE orders SET proxies_version = proxies_version + 1
    WHERE id IN (
      SELECT n.assigned_order_id FROM changed_new n JOIN changed_old o ON o.id = n.id
      WHERE n.assigned_order_id IS NOT NULL
        AND (n.assigned_order_id IS DISTINCT FROM o.assigned_order_id OR n.endpoint IS DISTINCT FROM o.endpoint
             OR n.ip IS DISTINCT FROM o.ip OR n.port IS DISTINCT FROM o.port)
      UNION
      SELECT o.assigned_order_id FROM changed_old o JOIN changed_new n ON n.id = o.id
      WHERE o.assigned_order_id IS NOT NULL
        AND (n.assigned_order_id IS DISTINCT FROM o.assigned_order_id OR n.endpoint IS DISTINCT FROM o.endpoint
             OR n.ip IS DISTINCT FROM o.ip OR n.port IS DISTINCT FROM o.port)
    );
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER proxy_ips_inserted AFTER INSERT ON proxy_ips REFERENCING NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION bump_order_proxies_version();
--> statement-breakpoint
CREATE TRIGGER proxy_ips_updated AFTER UPDATE ON proxy_ips REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new
  FOR EACH STATEMENT EXECUTE FUNCTION bump_order_proxies_version();
--> statement-breakpoint
CREATE TRIGGER proxy_ips_deleted AFTER DELETE ON proxy_ips REFERENCING OLD TABLE AS changed_old
  FOR EACH STATEMENT EXECUTE FUNCTION bump_order_proxies_version();
