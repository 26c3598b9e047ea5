-- PostgreSQL's migration 8 (SQLite's 11): deadlines.nudged, whether the person who owes
-- the seat's decision has had the one notification an away player gets for it.

ALTER TABLE deadlines ADD COLUMN nudged BOOLEAN NOT NULL DEFAULT FALSE;
