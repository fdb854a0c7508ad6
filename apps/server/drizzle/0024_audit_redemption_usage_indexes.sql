-- Indexes for the audit log's filters and a code's customers, and the residential data per day kept for the admin's
-- chart. Plain CREATE INDEX (drizzle's migrator runs in a transaction, where CONCURRENTLY is refused): writes to the
-- audit log and the redemptions wait while each is built, reads go on; the times on a big shop are in CHANGELOG.
CREATE TABLE "residential_usage_totals" (
	"day" date PRIMARY KEY NOT NULL,
	"used_kb" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "admin_audit_log_action_idx" ON "admin_audit_log" USING btree ("action","created_at","id");--> statement-breakpoint
CREATE INDEX "admin_audit_log_actor_idx" ON "admin_audit_log" USING btree ("actor_email","created_at","id");--> statement-breakpoint
CREATE INDEX "coupon_redemptions_code_email_idx" ON "coupon_redemptions" USING btree ("promo_code_id","email");--> statement-breakpoint
DROP INDEX "coupon_redemptions_code_idx";--> statement-breakpoint
-- Each statement that writes customers' daily usage (the meter's upserts, a deletion by cascade) adds its difference per
-- day to the totals in its own transaction; days raised in order so two statements never wait on each other.
CREATE FUNCTION total_residential_usage() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added CONSTANT text := 'SELECT day, used_kb FROM changed_new';
  removed CONSTANT text := 'SELECT day, -used_kb FROM changed_old';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM residential_usage_totals;
    RETURN NULL;
  END IF;
  EXECUTE format($query$
    INSERT INTO residential_usage_totals AS t (day, used_kb)
    SELECT day, sum(used_kb) FROM (%s) AS changed (day, used_kb)
    GROUP BY day
    HAVING sum(used_kb) <> 0
    ORDER BY day
    ON CONFLICT (day) DO UPDATE SET used_kb = t.used_kb + excluded.used_kb
  $query$, CASE TG_OP WHEN 'INSERT' THEN added WHEN 'DELETE' THEN removed ELSE added || ' UNION ALL ' || removed END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER residential_usage_totalled_insert AFTER INSERT ON residential_usage_daily
  REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION total_residential_usage();
--> statement-breakpoint
CREATE TRIGGER residential_usage_totalled_update AFTER UPDATE ON residential_usage_daily
  REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION total_residential_usage();
--> statement-breakpoint
CREATE TRIGGER residential_usage_totalled_delete AFTER DELETE ON residential_usage_daily
  REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION total_residential_usage();
--> statement-breakpoint
CREATE TRIGGER residential_usage_totalled_truncate AFTER TRUNCATE ON residential_usage_daily
  FOR EACH STATEMENT EXECUTE FUNCTION total_residential_usage();
--> statement-breakpoint
-- The first totals, read once while the meter's writes wait (reads go on).
INSERT INTO residential_usage_totals (day, used_kb)
SELECT day, sum(used_kb) FROM residential_usage_daily GROUP BY day;
