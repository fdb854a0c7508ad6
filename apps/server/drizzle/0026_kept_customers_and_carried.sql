-- A code's customers and the data every account carried, kept as they change instead of counted on each read.
ALTER TABLE "promo_codes" ADD COLUMN "customers" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "residential_pool" ADD COLUMN "carried_kb" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "promo_codes" p SET "customers" = c.customers
FROM (SELECT promo_code_id, count(DISTINCT email)::int AS customers FROM coupon_redemptions GROUP BY promo_code_id) c
WHERE c.promo_code_id = p.id;--> statement-breakpoint
-- Each statement that changes accounts' used data (the meter's batches) adds its difference to the pool's row in its own
-- transaction; a statement that moved no data takes no lock.
CREATE FUNCTION total_residential_carried() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE residential_pool SET carried_kb = 0;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT coalesce(sum(used_kb), 0) INTO delta FROM changed_new;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT -coalesce(sum(used_kb), 0) INTO delta FROM changed_old;
  ELSE
    SELECT coalesce((SELECT sum(used_kb) FROM changed_new), 0) - coalesce((SELECT sum(used_kb) FROM changed_old), 0)
      INTO delta;
  END IF;
  IF delta <> 0 THEN
    UPDATE residential_pool SET carried_kb = carried_kb + delta WHERE id = 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER residential_carried_insert AFTER INSERT ON residential_accounts
  REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION total_residential_carried();
--> statement-breakpoint
CREATE TRIGGER residential_carried_update AFTER UPDATE ON residential_accounts
  REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION total_residential_carried();
--> statement-breakpoint
CREATE TRIGGER residential_carried_delete AFTER DELETE ON residential_accounts
  REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION total_residential_carried();
--> statement-breakpoint
CREATE TRIGGER residential_carried_truncate AFTER TRUNCATE ON residential_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION total_residential_carried();
--> statement-breakpoint
-- The first total, read once while the meter's writes wait (reads go on).
UPDATE "residential_pool" SET "carried_kb" = (SELECT coalesce(sum(used_kb), 0) FROM residential_accounts);
