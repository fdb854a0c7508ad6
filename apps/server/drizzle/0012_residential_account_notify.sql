-- Every change of a residential account (a purchase, the gateway's metering, a block) is announced on the channel
-- residential_accounts with the customer's id, at the commit of the transaction that made it: each instance forgets what
-- it keeps of that customer's usage (modules/orders/usage-cache.ts), whichever code path, process or psql made the change.
CREATE FUNCTION notify_residential_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('residential_accounts', OLD.user_id);
  ELSE
    PERFORM pg_notify('residential_accounts', NEW.user_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER residential_accounts_notify AFTER INSERT OR UPDATE OR DELETE ON residential_accounts
  FOR EACH ROW EXECUTE FUNCTION notify_residential_account();
