-- Each customer's residential data per month, for the console's heaviest users of the month (an index read instead of
-- summing every customer's days). Kept like residential_usage_totals (0024), by the same statements' triggers.
CREATE TABLE "residential_usage_monthly" (
	"user_id" text NOT NULL,
	"month" date NOT NULL,
	"used_kb" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "residential_usage_monthly_user_id_month_pk" PRIMARY KEY("user_id","month")
);
--> statement-breakpoint
CREATE INDEX "residential_usage_monthly_top_idx" ON "residential_usage_monthly" USING btree ("month","used_kb" DESC NULLS LAST,"user_id");--> statement-breakpoint
CREATE FUNCTION month_residential_usage() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added CONSTANT text := 'SELECT user_id, day, used_kb FROM changed_new';
  removed CONSTANT text := 'SELECT user_id, day, -used_kb FROM changed_old';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM residential_usage_monthly;
    RETURN NULL;
  END IF;
  -- Rows raised in one order (customer, month), so two statements never wait on each other.
  EXECUTE format($query$
    INSERT INTO residential_usage_monthly AS m (user_id, month, used_kb)
    SELECT user_id, date_trunc('month', day)::date, sum(used_kb) FROM (%s) AS changed (user_id, day, used_kb)
    GROUP BY 1, 2
    HAVING sum(used_kb) <> 0
    ORDER BY 1, 2
    ON CONFLICT (user_id, month) DO UPDATE SET used_kb = m.used_kb + excluded.used_kb
  $query$, CASE TG_OP WHEN 'INSERT' THEN added WHEN 'DELETE' THEN removed ELSE added || ' UNION ALL ' || removed END);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER residential_usage_monthly_insert AFTER INSERT ON residential_usage_daily
  REFERENCING NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION month_residential_usage();
--> statement-breakpoint
CREATE TRIGGER residential_usage_monthly_update AFTER UPDATE ON residential_usage_daily
  REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION month_residential_usage();
--> statement-breakpoint
CREATE TRIGGER residential_usage_monthly_delete AFTER DELETE ON residential_usage_daily
  REFERENCING OLD TABLE AS changed_old FOR EACH STATEMENT EXECUTE FUNCTION month_residential_usage();
--> statement-breakpoint
CREATE TRIGGER residential_usage_monthly_truncate AFTER TRUNCATE ON residential_usage_daily
  FOR EACH STATEMENT EXECUTE FUNCTION month_residential_usage();
--> statement-breakpoint
-- The months so far, read once while the meter's writes wait (reads go on).
INSERT INTO residential_usage_monthly (user_id, month, used_kb)
SELECT user_id, date_trunc('month', day)::date, sum(used_kb) FROM residential_usage_daily GROUP BY 1, 2;
