"""The shuffle commitment (engine/commitment.py) and ``python -m engine verify``."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.commitment import SALT_BYTES, commitment, commitment_text, verify
from engine.record import Record
from engine.simulate import play_game

ROOT = Path(__file__).resolve().parents[2]
SALT = "00112233445566778899aabbccddeeff"


def run_verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "verify", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def finished_record(seed: int = 21) -> Record:
    _, record = play_game(3, seed=seed)
    record.salt = SALT
    return record


def test_the_hashed_bytes_are_the_documented_ones() -> None:
    assert commitment_text(42, SALT, 3) == f"tempus-commitment:1:3:42:{SALT}"
    want = hashlib.sha256(f"tempus-commitment:1:3:42:{SALT}".encode()).hexdigest()
    assert commitment(42, SALT, 3) == want
    assert SALT_BYTES * 8 >= 128
    # each part counts
    assert len({commitment(42, SALT, 3), commitment(43, SALT, 3), commitment(42, SALT, 2),
                commitment(42, "f" + SALT[1:], 3)}) == 4
    with pytest.raises(ValueError):
        commitment(42, SALT.upper(), 3)
    with pytest.raises(ValueError):
        commitment(42, SALT[:-2], 3)


def test_a_kept_commitment_verifies_and_counts_every_draw() -> None:
    record = finished_record()
    result = verify(record, commitment(record.seed, SALT, record.rules_version))
    assert result.ok, result.problem
    assert result.finished and result.actions == len(record.moves)
    assert sum(result.drawn.values()) == sum(len(c) for _, _, c in result.draws) > 0


def test_a_forged_seed_fails() -> None:
    record = finished_record()
    published = commitment(record.seed, SALT, record.rules_version)
    forged = Record.from_json({**record.to_json(),
                               "options": {**record.to_json()["options"],
                                           "seed": record.seed + 1}})
    result = verify(forged, published)
    assert not result.ok and "commitment" in result.problem
    # a bot that committed to the forged seed but dealt from another deck: the record
    # does not replay under the committed seed
    result = verify(forged, commitment(forged.seed, SALT, forged.rules_version))
    assert not result.ok and "not legal" in result.problem


def test_what_else_fails() -> None:
    record = finished_record()
    good = commitment(record.seed, SALT, record.rules_version)
    assert "64" in verify(record, "abc").problem
    unsalted = Record.from_json({k: v for k, v in record.to_json().items() if k != "salt"})
    assert "no salt" in verify(unsalted, good).problem
    pinned = Record.from_json({**record.to_json(), "deck": list(range(54))})
    assert "pins" in verify(pinned, good).problem
    other_rules = Record.from_json({**record.to_json(),
                                    "options": {**record.to_json()["options"],
                                                "rules_version": 2}})
    assert not verify(other_rules, good).ok


def test_the_command_line(tmp_path: Path) -> None:
    record = finished_record()
    path = tmp_path / "game.json"
    record.dump(path)
    assert json.loads(path.read_text())["salt"] == SALT
    good = commitment(record.seed, SALT, record.rules_version)
    ok = run_verify(str(path), "--commitment", good.upper())
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.startswith("OK: ") and good in ok.stdout
    listed = run_verify(str(path), "--commitment", good, "--draws")
    assert listed.returncode == 0 and "draws" in listed.stdout.splitlines()[1]
    bad = run_verify(str(path), "--commitment", "0" * 64)
    assert bad.returncode == 1 and bad.stdout.startswith("FAILED: ")
    (tmp_path / "junk.json").write_text("{}")
    unread = run_verify(str(tmp_path / "junk.json"), "--commitment", good)
    assert unread.returncode == 2 and unread.stdout.startswith("FAILED: ")
