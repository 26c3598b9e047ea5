"""Getting words and boards to people: turn messages, outboxes, pacing, DMs, menus."""
