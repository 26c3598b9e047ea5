-- What must survive a restart of the turn clock and of people's private menus.
-- deadlines.covering: the turn (engine.undo.turn_key as JSON) in which a computer decides
-- for the seat after its time ran out (NULL: not covered), so a restart neither gives the
-- seat a fresh deadline nor counts the same turn twice. user_settings.locale: the language
-- of the person's Discord client, last seen (DMs are written in it). private_menus: the DM
-- menus (buttons) sent for a decision and not yet used or retired, so that after a restart
-- the stale ones are still edited to "no longer current" (ephemeral replies are not
-- stored: their token dies after 15 minutes).

ALTER TABLE deadlines ADD COLUMN covering TEXT;
ALTER TABLE user_settings ADD COLUMN locale TEXT;
CREATE TABLE private_menus (
    message_id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games (id),
    user_id INTEGER NOT NULL,
    version INTEGER NOT NULL,
    content TEXT NOT NULL,
    locale TEXT NOT NULL
);
CREATE INDEX private_menus_game ON private_menus (game_id);
