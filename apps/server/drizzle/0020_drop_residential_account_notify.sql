-- Usage answers are read from the database on every request now: nothing listens for these notifications, and the
-- gateway's meter would have sent one on every flush.
DROP TRIGGER IF EXISTS residential_accounts_notify ON residential_accounts;
--> statement-breakpoint
DROP FUNCTION IF EXISTS notify_residential_account();
