-- deadlines.nudged: the person who owes the seat's decision has had the one notification
-- an away player gets for it (a ping, or a DM for a secret choice): when it was asked, or
-- a few minutes later when they had not acted (bot.timing.nudges). Kept with the clock
-- so that a restart neither sends it twice nor forgets it.

ALTER TABLE deadlines ADD COLUMN nudged INTEGER NOT NULL DEFAULT 0;
