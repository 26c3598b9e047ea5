-- A thread per game (the game is played there; NULL: in the channel itself) and the
-- turn message (posted when a turn or phase begins, edited in place by its steps).

ALTER TABLE games ADD COLUMN thread_id INTEGER;
ALTER TABLE games ADD COLUMN turn_key TEXT;
CREATE INDEX games_thread ON games (thread_id);
