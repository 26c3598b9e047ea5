-- The version each action made (a restart knows since when each seat owes its
-- decision) and the last version announced (a restart re-posts what a crash lost).

ALTER TABLE actions ADD COLUMN version INTEGER;
ALTER TABLE games ADD COLUMN announced_version INTEGER;
