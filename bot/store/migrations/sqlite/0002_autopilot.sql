-- A computer may play a person's seat for them ("autopilot", R-ROUND-2 goes on).

ALTER TABLE seats ADD COLUMN autopilot TEXT;
