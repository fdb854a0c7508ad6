CREATE TABLE "residential_gateway_leases" (
	"user_id" text NOT NULL,
	"gateway_id" text NOT NULL,
	"kb" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "residential_gateway_leases_user_id_gateway_id_pk" PRIMARY KEY("user_id","gateway_id")
);
--> statement-breakpoint
ALTER TABLE "residential_gateway_leases" ADD CONSTRAINT "residential_gateway_leases_user_id_residential_accounts_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."residential_accounts"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "residential_gateway_leases_gateway_idx" ON "residential_gateway_leases" USING btree ("gateway_id");--> statement-breakpoint
-- A gateway's lease of an account's data raised to what it asks (what it has carried unwritten plus a slice), as far as
-- the account allows once used_kb and every other gateway's live lease are taken off; returns the lease. The account's
-- row is locked first, and each statement of a function reads afresh, so two gateways asking at once are served one
-- after the other, the second seeing the first's lease. Leases left by gateways that died are deleted when met.
CREATE FUNCTION reserve_residential_data(p_user_id text, p_gateway_id text, p_want_kb bigint, p_lease_ms integer)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_left bigint;
  v_held bigint;
  v_lease bigint;
BEGIN
  SELECT total_kb - used_kb INTO v_left FROM residential_accounts WHERE user_id = p_user_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  DELETE FROM residential_gateway_leases WHERE user_id = p_user_id AND expires_at <= now();
  SELECT coalesce(sum(kb), 0) INTO v_held FROM residential_gateway_leases
  WHERE user_id = p_user_id AND gateway_id <> p_gateway_id;
  v_lease := greatest(0, least(p_want_kb, v_left - v_held));
  INSERT INTO residential_gateway_leases (user_id, gateway_id, kb, expires_at)
  VALUES (p_user_id, p_gateway_id, v_lease, now() + p_lease_ms * interval '1 millisecond')
  ON CONFLICT (user_id, gateway_id) DO UPDATE SET kb = excluded.kb, expires_at = excluded.expires_at;
  RETURN v_lease;
END;
$$;
