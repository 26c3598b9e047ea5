-- The shuffle commitment (engine/commitment.py) and who timed out of a game.
-- games.seed_salt: the random salt (lower-case hex) hashed with the seed and the rules
-- version when the game started; games.seed_commitment: that SHA-256, shown in the start
-- post (both NULL for games started before commitments: they show none).
-- seats.timed_out: the seat went on autopilot after missed deadlines (and stays so until
-- its person takes it back); a person whose seat ends the game so is rated as one who
-- left (bot/history/ratings.py).

ALTER TABLE games ADD COLUMN seed_salt TEXT;
ALTER TABLE games ADD COLUMN seed_commitment TEXT;
ALTER TABLE seats ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0;
