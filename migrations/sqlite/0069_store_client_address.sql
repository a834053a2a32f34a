-- Whether a project stores each event's client address (props.$ip): off unless switched on, and
-- off for every existing project (server/behavior/behaviorSettings.ts).
ALTER TABLE behavior_settings ADD COLUMN store_client_address INTEGER NOT NULL DEFAULT 0 CHECK (store_client_address IN (0, 1));
