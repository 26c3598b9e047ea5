-- Each person's one hand message per game: the DM that shows their cards and is edited in
-- place as the hand changes (an edit does not notify; a new DM would), so it is found
-- again after a restart. Keyed by the person, not the seat: a seat given to someone else
-- gets a message of its own in the new person's DMs.

CREATE TABLE hand_messages (
    game_id INTEGER NOT NULL REFERENCES games (id),
    user_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
