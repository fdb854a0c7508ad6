CREATE TABLE "proxy_user_allowance_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"proxy_user_id" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_by" text NOT NULL,
	"from_allowance" text NOT NULL,
	"from_kb" bigint,
	"from_reset_day" integer,
	"to_allowance" text NOT NULL,
	"to_kb" bigint,
	"to_reset_day" integer
);
--> statement-breakpoint
CREATE TABLE "proxy_users" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"password" text NOT NULL,
	"note" text,
	"paused" boolean DEFAULT false NOT NULL,
	"allowance" text DEFAULT 'none' NOT NULL,
	"allowance_kb" bigint,
	"reset_day" integer,
	"used_kb" bigint DEFAULT 0 NOT NULL,
	"period_used_kb" bigint DEFAULT 0 NOT NULL,
	"period_start" date,
	"countries" text[] DEFAULT '{}'::text[] NOT NULL,
	"max_connections" integer,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proxy_users_allowance_shape" CHECK (("proxy_users"."allowance" = 'none' and "proxy_users"."allowance_kb" is null and "proxy_users"."reset_day" is null)
        or ("proxy_users"."allowance" = 'total' and "proxy_users"."allowance_kb" >= 0 and "proxy_users"."reset_day" is null)
        or ("proxy_users"."allowance" = 'monthly' and "proxy_users"."allowance_kb" >= 0 and "proxy_users"."reset_day" between 1 and 28)),
	CONSTRAINT "proxy_users_max_connections" CHECK ("proxy_users"."max_connections" is null or "proxy_users"."max_connections" >= 1)
);
--> statement-breakpoint
CREATE TABLE "residential_gateway_leases" (
	"user_id" text NOT NULL,
	"proxy_user_id" text DEFAULT '' NOT NULL,
	"gateway_id" text NOT NULL,
	"kb" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "residential_gateway_leases_user_id_proxy_user_id_gateway_id_pk" PRIMARY KEY("user_id","proxy_user_id","gateway_id")
);
--> statement-breakpoint
CREATE TABLE "residential_usage_domains" (
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	"proxy_user_id" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"domain" text DEFAULT '' NOT NULL,
	"upload_bytes" bigint DEFAULT 0 NOT NULL,
	"download_bytes" bigint DEFAULT 0 NOT NULL,
	"connections" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "residential_usage_domains_user_id_day_proxy_user_id_country_domain_pk" PRIMARY KEY("user_id","day","proxy_user_id","country","domain")
);
--> statement-breakpoint
CREATE TABLE "residential_usage_hourly" (
	"user_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"proxy_user_id" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"upload_bytes" bigint DEFAULT 0 NOT NULL,
	"download_bytes" bigint DEFAULT 0 NOT NULL,
	"connections" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "residential_usage_hourly_user_id_hour_proxy_user_id_country_pk" PRIMARY KEY("user_id","hour","proxy_user_id","country")
);
--> statement-breakpoint
ALTER TABLE "authorized_ips" ADD COLUMN "proxy_user_id" text;--> statement-breakpoint
ALTER TABLE "customer_preferences" ADD COLUMN "record_domains" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "proxy_user_allowance_changes" ADD CONSTRAINT "proxy_user_allowance_changes_proxy_user_id_proxy_users_id_fk" FOREIGN KEY ("proxy_user_id") REFERENCES "public"."proxy_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proxy_users" ADD CONSTRAINT "proxy_users_user_id_residential_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."residential_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residential_gateway_leases" ADD CONSTRAINT "residential_gateway_leases_user_id_residential_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."residential_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residential_usage_domains" ADD CONSTRAINT "residential_usage_domains_user_id_residential_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."residential_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residential_usage_hourly" ADD CONSTRAINT "residential_usage_hourly_user_id_residential_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."residential_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "proxy_user_allowance_changes_idx" ON "proxy_user_allowance_changes" USING btree ("proxy_user_id","changed_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "proxy_users_live_name_idx" ON "proxy_users" USING btree ("user_id","name") WHERE "proxy_users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "proxy_users_user_idx" ON "proxy_users" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "residential_gateway_leases_gateway_idx" ON "residential_gateway_leases" USING btree ("gateway_id");--> statement-breakpoint
CREATE INDEX "residential_usage_domains_day_idx" ON "residential_usage_domains" USING btree ("day");--> statement-breakpoint
CREATE INDEX "residential_usage_hourly_hour_idx" ON "residential_usage_hourly" USING btree ("hour");--> statement-breakpoint
ALTER TABLE "authorized_ips" ADD CONSTRAINT "authorized_ips_proxy_user_id_proxy_users_id_fk" FOREIGN KEY ("proxy_user_id") REFERENCES "public"."proxy_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "authorized_ips_proxy_user_idx" ON "authorized_ips" USING btree ("proxy_user_id");--> statement-breakpoint
-- The first day (UTC) of the monthly period a proxy user's allowance is in at `at`, for its reset day (1-28).
CREATE FUNCTION proxy_user_period_start(p_reset_day integer, p_at timestamptz)
RETURNS date LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v_day date := (p_at AT TIME ZONE 'utc')::date;
  v_start date := make_date(extract(year FROM v_day)::integer, extract(month FROM v_day)::integer, p_reset_day);
BEGIN
  IF v_start > v_day THEN
    v_start := (v_start - interval '1 month')::date;
  END IF;
  RETURN v_start;
END;
$$;
--> statement-breakpoint
-- A gateway's lease of an account's data (for its main user, p_proxy_user_id '', or one of its proxy users) raised to
-- what it asks (what it has carried unwritten plus a slice), as far as the account allows once used_kb and every other
-- lease of the account are taken off, and as far as a proxy user's allowance allows once what it used this period and
-- its other leases are; none for a proxy user paused or deleted. Returns the lease, and what limited it: 'account' (the
-- account's data), 'allowance' (the proxy user's) or 'paused' (paused or deleted). The account's row is locked first,
-- and each statement of a function reads afresh, so two gateways asking at once are served one after the other, the
-- second seeing the first's lease. Leases left by gateways that died are deleted when met.
CREATE FUNCTION reserve_residential_data(
  p_user_id text, p_proxy_user_id text, p_gateway_id text, p_want_kb bigint, p_lease_ms integer,
  OUT granted_kb bigint, OUT limited_by text
)
LANGUAGE plpgsql AS $$
DECLARE
  v_left bigint;
  v_held bigint;
  v_lease bigint;
  v_account_lease bigint;
  v_user proxy_users%ROWTYPE;
  v_used bigint;
BEGIN
  granted_kb := 0;
  limited_by := 'account';
  SELECT total_kb - used_kb INTO v_left FROM residential_accounts WHERE user_id = p_user_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  DELETE FROM residential_gateway_leases WHERE user_id = p_user_id AND expires_at <= now();
  SELECT coalesce(sum(kb), 0) INTO v_held FROM residential_gateway_leases
  WHERE user_id = p_user_id AND NOT (proxy_user_id = p_proxy_user_id AND gateway_id = p_gateway_id);
  v_lease := least(p_want_kb, v_left - v_held);
  v_account_lease := greatest(0, v_lease);
  IF p_proxy_user_id <> '' THEN
    SELECT * INTO v_user FROM proxy_users WHERE id = p_proxy_user_id AND user_id = p_user_id;
    IF NOT FOUND OR v_user.deleted_at IS NOT NULL OR v_user.paused THEN
      v_lease := 0;
      limited_by := 'paused';
    ELSIF v_user.allowance <> 'none' THEN
      v_used := CASE
        WHEN v_user.allowance = 'total' THEN v_user.used_kb
        WHEN v_user.period_start = proxy_user_period_start(v_user.reset_day, now()) THEN v_user.period_used_kb
        ELSE 0
      END;
      SELECT coalesce(sum(kb), 0) INTO v_held FROM residential_gateway_leases
      WHERE user_id = p_user_id AND proxy_user_id = p_proxy_user_id AND gateway_id <> p_gateway_id;
      v_lease := least(v_lease, v_user.allowance_kb - v_used - v_held);
      IF greatest(0, v_lease) < v_account_lease THEN
        limited_by := 'allowance';
      END IF;
    END IF;
  END IF;
  v_lease := greatest(0, v_lease);
  INSERT INTO residential_gateway_leases AS l (user_id, proxy_user_id, gateway_id, kb, expires_at)
  VALUES (p_user_id, p_proxy_user_id, p_gateway_id, v_lease, now() + p_lease_ms * interval '1 millisecond')
  ON CONFLICT (user_id, proxy_user_id, gateway_id) DO UPDATE SET kb = excluded.kb, expires_at = excluded.expires_at;
  granted_kb := v_lease;
END;
$$;
