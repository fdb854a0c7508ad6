-- The same rule as 0011 (every statement that adds, removes or changes IPs of an order raises that order's
-- proxies_version once), computed more cheaply: the orders to raise are gathered first, a statement that changed no
-- order's IPs (a short claim, an upload of unassigned IPs, a flag) stops there, and the raise finds each order by its
-- key (0011's IN (…) was planned as a hash join over a sequential scan of orders, run on every delivery).
CREATE OR REPLACE FUNCTION bump_order_proxies_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_orders uuid[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    changed_orders := ARRAY(SELECT DISTINCT assigned_order_id FROM changed_new WHERE assigned_order_id IS NOT NULL);
  ELSIF TG_OP = 'DELETE' THEN
    changed_orders := ARRAY(SELECT DISTINCT assigned_order_id FROM changed_old WHERE assigned_order_id IS NOT NULL);
  ELSE
    changed_orders := ARRAY(
      SELECT DISTINCT changed.order_id
      FROM changed_new n
      JOIN changed_old o ON o.id = n.id
      CROSS JOIN LATERAL (VALUES (n.assigned_order_id), (o.assigned_order_id)) AS changed (order_id)
      WHERE changed.order_id IS NOT NULL
        AND (n.assigned_order_id, n.endpoint, n.ip, n.port) IS DISTINCT FROM (o.assigned_order_id, o.endpoint, o.ip, o.port));
  END IF;
  IF cardinality(changed_orders) > 0 THEN
    UPDATE orders SET proxies_version = proxies_version + 1 WHERE id = ANY (changed_orders);
  END IF;
  RETURN NULL;
END
$$;
