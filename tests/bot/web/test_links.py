"""Links: signed, bound to a game, a seat and a person, expiring; the secret kept once."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from bot.web.limits import RateLimit
from bot.web.links import MAX_TOKEN, BadLink, Links, load_secret

SECRET = b"0123456789abcdef0123456789abcdef"


def test_a_token_says_what_it_was_made_for() -> None:
    links = Links(SECRET, "https://tempus.example")
    link = links.check(links.token(42, 3, 1234567890123))
    assert (link.game_id, link.seat, link.user_id) == (42, 3, 1234567890123)
    assert not link.watching
    watch = links.check(links.token(42, None, 5))
    assert watch.watching and watch.seat is None
    assert links.url("abc") == "https://tempus.example/#abc", "the token after '#' only"


@pytest.mark.parametrize("change", ["payload", "mac", "truncate", "empty", "dots", "long",
                                    "garbage"])
def test_a_forged_or_damaged_token_is_refused(change: str) -> None:
    links = Links(SECRET, "https://tempus.example")
    token = links.token(42, 0, 7)
    head, tail = token.split(".")
    flip = {"A": "B"}.get(head[5], "A")
    forged = {
        "payload": head[:5] + flip + head[6:] + "." + tail,
        "mac": head + "." + ("A" if tail[0] != "A" else "B") + tail[1:],
        "truncate": token[:-3],
        "empty": "",
        "dots": token + ".x",
        "long": "A" * (MAX_TOKEN + 1),
        "garbage": "%%%.%%%",
    }[change]
    with pytest.raises(BadLink) as exc:
        links.check(forged)
    assert exc.value.key == "web.error.link"


def test_another_secret_signs_other_links() -> None:
    token = Links(SECRET, "https://a").token(1, 0, 2)
    with pytest.raises(BadLink):
        Links(b"another secret, thirty-two bytes", "https://a").check(token)


def test_a_link_expires() -> None:
    now = [1_000_000.0]
    links = Links(SECRET, "https://a", seat_hours=2, now=lambda: now[0])
    token = links.token(1, 0, 2)
    now[0] += 2 * 3600 - 1
    links.check(token)
    now[0] += 2
    with pytest.raises(BadLink) as exc:
        links.check(token)
    assert exc.value.key == "web.error.expired"


def test_a_short_secret_is_refused() -> None:
    with pytest.raises(ValueError):
        Links(b"short", "https://a")


def test_the_secret_is_made_once_and_kept_for_its_owner_only(tmp_path: Path) -> None:
    first = load_secret(None, tmp_path)
    assert len(first) == 32
    path = tmp_path / "web-secret"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert load_secret(None, tmp_path) == first, "links stay valid across restarts"
    assert load_secret("from the environment", tmp_path) == b"from the environment"


def test_the_rate_limit_is_per_link_and_refills() -> None:
    now = [0.0]
    limit = RateLimit(rate=2.0, burst=3.0, now=lambda: now[0])
    assert [limit.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limit.allow("b"), "another link has its own bucket"
    now[0] += 0.5
    assert limit.allow("a") and not limit.allow("a")
