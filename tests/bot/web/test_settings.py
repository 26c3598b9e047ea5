"""The live pages' settings: off unless both the port and the address are set; a bad
value refused at start-up, naming the setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.operator.settings import Settings
from bot.web.front import beside, data_folder


def test_off_unless_port_and_address_are_set() -> None:
    assert beside(Settings.from_env({})) is None
    assert beside(Settings.from_env({"TEMPUS_WEB_PORT": "8080"})) is None
    assert beside(Settings.from_env({"TEMPUS_WEB_URL": "https://t.example/"})) is None
    s = Settings.from_env({"TEMPUS_WEB_PORT": "8080", "TEMPUS_WEB_URL": "https://t.example/",
                           "TEMPUS_WEB_SECRET": "x" * 32, "TEMPUS_WEB_LINK_HOURS": "12"})
    front = beside(s)
    assert front is not None and front.links.seat_hours == 12
    assert front.links.url("tok") == "https://t.example/#tok"


@pytest.mark.parametrize(("name", "value"), [
    ("TEMPUS_WEB_PORT", "http"), ("TEMPUS_WEB_PORT", "70000"),
    ("TEMPUS_WEB_URL", "t.example"), ("TEMPUS_WEB_SECRET", "short"),
    ("TEMPUS_WEB_LINK_HOURS", "0"), ("TEMPUS_WEB_LINK_HOURS", "soon"),
    ("TEMPUS_ACTIVITY_SECRET", "short"), ("TEMPUS_ACTIVITY_SECRET", "x" * 32),  # no pages
])
def test_a_bad_value_is_refused_by_name(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value})


def test_the_secret_is_kept_beside_the_database(tmp_path: Path) -> None:
    assert data_folder(Settings(db=str(tmp_path / "t.db"))) == tmp_path
    assert data_folder(Settings(db="postgresql://u@h/d", web_secret_dir="/data")) == Path("/data")


def test_the_activity_secret_needs_the_pages_and_stays_out_of_reprs() -> None:
    s = Settings.from_env({"TEMPUS_WEB_PORT": "8080", "TEMPUS_WEB_URL": "https://t.example/",
                           "TEMPUS_ACTIVITY_SECRET": " s3cret-of-the-application-0123 "})
    assert s.activity_secret == "s3cret-of-the-application-0123"
    assert "s3cret" not in repr(s)
    assert Settings.from_env({}).activity_secret is None
