-- SQLite's migration 8: the salt and commitment of a game's seed, and seats that went on
-- autopilot after missed deadlines.

ALTER TABLE games ADD COLUMN seed_salt TEXT;
ALTER TABLE games ADD COLUMN seed_commitment TEXT;
ALTER TABLE seats ADD COLUMN timed_out BOOLEAN NOT NULL DEFAULT FALSE;
