"""The stored JSON text (bot.runtime.json_text): orjson writes what the standard
library wrote, and whatever it writes reads back as the value it was given."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.runtime.json_text import compact
from tests.bot.helpers import random_states


def _stdlib(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


def test_a_whole_random_game_is_written_as_the_standard_library_wrote_it() -> None:
    """Every snapshot of a random game, byte for byte: the text in old databases and new
    ones is the same."""
    for state in random_states(7, players=4, every=5):
        snapshot = state.to_json()
        assert compact(snapshot) == _stdlib(snapshot)


def test_integer_keys_and_floats_as_before() -> None:
    options = {"pace": "normal", "seats": {1: "normal", 3: None}, "timeout_s": 86400.5}
    assert compact(options) == _stdlib(options) == \
        '{"pace":"normal","seats":{"1":"normal","3":null},"timeout_s":86400.5}'


def test_what_orjson_refuses_falls_back_to_the_standard_library() -> None:
    huge = {"seed": 2**70, "list": [-(2**65)]}
    assert compact(huge) == _stdlib(huge)


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**80), 2**80)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(max_size=5) | st.integers(-1000, 1000), inner, max_size=5),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_anything_reads_back_as_the_standard_library_reads_it(value: Any) -> None:
    """Text outside ASCII, floats and integer keys may be spelled differently; read back,
    the value is the same as the standard library's text gives."""
    assert json.loads(compact(value)) == json.loads(_stdlib(value))
