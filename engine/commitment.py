"""The shuffle commitment: the seed fixed before the first card is drawn, checkable by
anyone once it is revealed.

When a game starts, the bot publishes ``commitment(seed, salt, rules_version)``, a
SHA-256 digest, and keeps the seed and the salt secret. At the end the record (which
holds the seed and the salt) is published; :func:`verify` recomputes the digest and
replays the record, so anyone can check that every card drawn came from the deck that
seed made (``python -m engine verify record.json --commitment HEX``).

The exact bytes hashed (UTF-8, no trailing newline)::

    tempus-commitment:1:<rules_version>:<seed>:<salt>

``1`` is the version of this format; ``<rules_version>`` and ``<seed>`` are decimal
integers without leading zeros or a sign (the seed is never negative); ``<salt>`` is the
salt in lower-case hexadecimal (:data:`SALT_BYTES` random bytes, 32 hex digits). E.g.
``printf '%s' 'tempus-commitment:1:3:42:00112233445566778899aabbccddeeff' | sha256sum``.

The salt is what keeps the seed secret while the game runs: without it, trying every
seed against the published digest would find it. The seed must be random and large too
(the bot draws 63 random bits), or trying seeds against the public map and start player
would find it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections import Counter
from dataclasses import dataclass, field

from .errors import IllegalAction
from .events import visible
from .game import apply_in_place
from .record import Record
from .state import OVER

#: the version of the hashed text's format (its second field)
COMMITMENT_FORMAT = 1
#: random bytes of a salt: 128 bits
SALT_BYTES = 16
_HEX = re.compile(r"[0-9a-f]+")


def check_salt(salt: str) -> str:
    """The salt if it is :data:`SALT_BYTES` bytes in lower-case hex, else ValueError."""
    if len(salt) != 2 * SALT_BYTES or not _HEX.fullmatch(salt):
        raise ValueError(f"a salt is {2 * SALT_BYTES} lower-case hexadecimal digits")
    return salt


def commitment_text(seed: int, salt: str, rules_version: int) -> str:
    """The text whose SHA-256 is the commitment (module docstring)."""
    if seed < 0:
        raise ValueError("a seed is never negative")
    return f"tempus-commitment:{COMMITMENT_FORMAT}:{int(rules_version)}:{int(seed)}:" \
           f"{check_salt(salt)}"


def commitment(seed: int, salt: str, rules_version: int) -> str:
    """The commitment to ``seed``: SHA-256 in lower-case hex (64 digits)."""
    return hashlib.sha256(commitment_text(seed, salt, rules_version).encode()).hexdigest()


@dataclass
class Verification:
    """What :func:`verify` found: ``ok``, or ``problem`` says what failed."""

    ok: bool
    problem: str = ""
    #: cards each seat drew in the replay (from the deck, and after reshuffles)
    drawn: Counter[int] = field(default_factory=Counter)
    reshuffles: int = 0
    actions: int = 0
    finished: bool = False
    scores: list[int] = field(default_factory=list)
    #: (action index, seat, cards) of every draw, in order
    draws: list[tuple[int, int, list[int]]] = field(default_factory=list)


def verify(record: Record, expected: str) -> Verification:
    """Check ``record`` against the commitment ``expected`` (hex, as published at the
    start): its seed and salt must give that digest under its rules version, its deck and
    tiles must come from the seed (not pinned), and every action must replay legally, so
    every card drawn is the one that seed's shuffles put on top."""
    want = expected.strip().lower()
    if len(want) != 64 or not _HEX.fullmatch(want):
        return Verification(False, "the commitment is not 64 hexadecimal digits")
    if record.salt is None:
        return Verification(False, "the record has no salt: it was not committed to "
                                   "(a game started before commitments, or not a finished "
                                   "game's record)")
    try:
        got = commitment(record.seed, record.salt, record.rules_version)
    except ValueError as exc:
        return Verification(False, f"the record's seed or salt is malformed: {exc}")
    if not hmac.compare_digest(got, want):
        return Verification(False, f"the record's seed, salt and rules version give the "
                                   f"commitment {got}, not {want}")
    if record.deck is not None or record.tiles is not None:
        return Verification(False, "the record pins its deck or tiles: they did not come "
                                   "from the seed")
    out = Verification(True)
    try:
        state, _ = record.new_state()
    except IllegalAction as exc:
        return Verification(False, f"the record's setup is not valid: {exc}")
    for i, (seat, action) in enumerate(record.moves):
        try:
            events = apply_in_place(state, seat, action)
        except IllegalAction as exc:
            return Verification(False, f"action {i} (seat {seat}) is not legal with the "
                                       f"cards this seed dealt: {exc}")
        for e in events:
            if e.kind == "draw_private" and e.seat is not None:
                cards = list(e.data.get("cards", []))
                out.drawn[e.seat] += len(cards)
                out.draws.append((i, e.seat, cards))
        out.reshuffles += sum(1 for e in visible(events, None) if e.kind == "reshuffle")
    out.actions = len(record.moves)
    out.finished = state.phase == OVER
    out.scores = list(state.scores)
    return out
