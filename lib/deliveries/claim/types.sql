-- The row sets the claim's stages pass each other (claim-due-deliveries.sql): one composite row per
-- scanned queue row, which the stages decide for in place, and one per recovery run in play.
-- A type cannot be replaced: a change of shape is a new type under a new name, like a function's
-- result (see claim-due-deliveries.sql). Applied after the migrations, under the migration lock.
DO $$ BEGIN
  IF to_regtype('webhook_admin_claim_item') IS NULL THEN
    CREATE TYPE webhook_admin_claim_item AS (
      delivery_id text,
      kind smallint,
      endpoint_id text,
      -- The recovery run of a recovery item; null for the other kinds.
      recovery_id text,
      -- What this claim does with it: 'claim', 'park' or 'drop'; null leaves it due for another claim.
      action text,
      -- A parked row's next look: its time, and whether it waits for a slot (woken by the
      -- endpoint's next outcome) or for a time (a rate's next second, its run's budget).
      until timestamptz,
      for_slot boolean,
      -- A claimed row that is the half-open circuit's single trial.
      probe boolean,
      -- Parked for a slot while other leases held them: how many (the park stage checks whether
      -- one of those is being released right now).
      wait_leased integer
    );
  END IF;
  IF to_regtype('webhook_admin_claim_run') IS NULL THEN
    CREATE TYPE webhook_admin_claim_run AS (
      id text,
      -- What it may still send by its one-second log, and by its bucket; its rate.
      sendable integer,
      tokens float8,
      rate float8,
      -- When its oldest logged send stops counting; the clock its budget was read at.
      oldest timestamptz,
      clock timestamptz
    );
  END IF;
END $$;
