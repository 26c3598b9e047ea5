"""A record built from a front end's stored options replays under the rules the game was
started with, whatever today's are (the bot's load, check-db and migrate-db all use it)."""

from engine.record import Record
from engine.rules import RULES_VERSION


def test_stored_options_keep_their_rules_version_and_setup() -> None:
    old = Record.from_stored({"seed": "7", "random_map": False, "start_player": 2}, 3)
    assert (old.rules_version, old.options) == (1, {})  # stored before rules versions
    assert (old.seed, old.random_map, old.start_player, old.num_players) == (7, False, 2, 3)
    two = Record.from_stored({"seed": 7, "rules_version": 2,
                              "protection_counts_cities": True}, 4, moves=[])
    assert two.rules_version == 2 and two.options == {"protection_counts_cities": True}
    now = Record.from_stored({"seed": 7, "rules_version": RULES_VERSION}, 4)
    assert now.rules_version == RULES_VERSION and now.random_map
    assert now.new_state()[0].rules_version == RULES_VERSION
    assert two.new_state()[0].rules_version == 2
