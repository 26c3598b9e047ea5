"""The offline console drives the same table service: computer-only and scripted play."""

from __future__ import annotations

import io
import itertools
import random
import re
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.terminal.console import run_console
from lang.messages import t


@pytest.mark.asyncio
async def test_computers_finish_a_game(tmp_path: Path) -> None:
    out = io.StringIO()
    rc = await run_console(players_n=3, humans=0, seed=3, out_dir=str(tmp_path), out=out)
    assert rc == 0
    text = out.getvalue()
    assert "Final scores" in text and "Winner" in text
    assert (tmp_path / "tempus-game-1.json").exists()


@pytest.mark.asyncio
async def test_a_person_plays_through_the_menus(tmp_path: Path) -> None:
    """Random numbers typed at every prompt (some out of range): a whole game by keyboard.
    A cap on the answers turns a game that stops making progress into a failure."""
    rng = random.Random(4)
    reads = itertools.count()

    def read(prompt: str) -> str:
        if next(reads) > 50_000:
            raise EOFError
        wanted = re.search(r"\((\d+)-\d+ numbers", prompt)  # a select: how many at least
        k = int(wanted[1]) if wanted else 1
        return ",".join(str(x) for x in rng.sample(range(1, 8), max(k, 1)))

    out = io.StringIO()
    rc = await run_console(players_n=3, humans=2, seed=4, out_dir=None, read=read, out=out)
    assert rc == 0, out.getvalue()[-2000:]
    assert "Final scores" in out.getvalue()


@pytest.mark.asyncio
async def test_end_of_input_stops_cleanly() -> None:
    def eof(_prompt: str) -> str:
        raise EOFError

    assert await run_console(humans=1, seed=1, out_dir=None, read=eof, out=io.StringIO()) == 1


def test_missing_token_is_explained(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main([]) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


# ------------------------------------------------------------------ the console's own features
class Script:
    """Answers typed at the console's prompts, in order; each answer is a string, a function
    of the output so far (to answer with what the console just printed), or an exception to
    raise (Ctrl-C is KeyboardInterrupt). Past the last answer: end of input."""

    def __init__(self, out: io.StringIO, *answers: object) -> None:
        self.out = out
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        a = self.answers.pop(0)
        if isinstance(a, BaseException) or (isinstance(a, type) and issubclass(a, BaseException)):
            raise a
        return a(self.out.getvalue()) if callable(a) else str(a)


async def _console(*answers: object, lang: str = "en", out_dir: str | None = None,
                   **kw) -> tuple[int, str, Script]:
    out = io.StringIO()
    script = Script(out, *answers)
    rc = await run_console(players_n=3, humans=1, seed=2, out_dir=out_dir, read=script,
                           out=out, lang=lang, **kw)
    return rc, out.getvalue(), script


DISCORD = ("/tempus", "`", "**", "</")


def _plain(text: str) -> None:
    for mark in DISCORD:
        assert mark not in text, f"{mark!r} at the console: ...{text[text.find(mark) - 80:][:200]}"


@pytest.mark.asyncio
async def test_no_control_about_pings_at_the_console() -> None:
    """Nobody is pinged at a terminal, so the turn message's "No pings this turn" is not
    offered there (it would only answer that nothing will ping)."""
    rc, text, _ = await _console()
    assert rc == 1 and "== Player 1 ==" in text
    assert "[🔕" not in text and "pings" not in text


@pytest.mark.asyncio
async def test_back_returns_to_the_decision_without_a_discord_line() -> None:
    """A private menu's "Back" at the terminal shows the decision's menu again; Discord's
    "Closed. Choose again on the turn message." names a message the console has not."""
    # the tile select, its first centre, then the preview's third control: Back
    rc, text, script = await _console("1", "1", "3", random_map=False)
    assert rc == 1 and "[◀ Back]" in text
    assert t("menu.closed") not in text
    menus = [p for p in text.split("== Player 1 ==") if "Choose the centre hex" in p]
    assert len(menus) == 2, text[-1500:]  # the decision's menu, then again after Back


@pytest.mark.asyncio
async def test_it_says_where_the_board_pictures_go(tmp_path: Path) -> None:
    rc, text, _ = await _console(out_dir=str(tmp_path))
    assert rc == 1  # input ended
    first = text.splitlines()[0]
    assert str(tmp_path.resolve()) in first and "Board images go to" in first
    saved = re.findall(r"\(board picture: (\S+)\)", text)
    assert saved and all(Path(p).read_bytes()[:4] == b"\x89PNG" for p in saved)
    rc, text, _ = await _console(out_dir=None, lang="pl")
    assert text.splitlines()[0].startswith("Obrazy planszy nie są zapisywane")


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "pl"])
async def test_rules_topics_without_discord_syntax(lang: str) -> None:
    from lang.i18n import using
    from lang.messages import t

    with using(lang):
        move, glossary, commands, unknown = (t("rules.move"), t("rules.glossary"),
                                             t("console.rules.commands"),
                                             t("console.unknown_topic"))
        glossary_name = t("rules.topic.glossary")
    folded = glossary_name.replace("ł", "l")  # typed without Polish letters
    rc, text, script = await _console("r", "move", "r", folded, "r", "commands", "r", "nonsense",
                                      "r", "", lang=lang)
    assert rc == 1
    assert sum(p.startswith(("Rules topic", "Temat zasad")) for p in script.prompts) == 5
    assert move.replace("**", "")[:60] in text
    assert glossary.replace("**", "")[:60] in text
    assert commands in text and unknown in text
    _plain(text)


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "pl"])
async def test_help_names_the_console_keys_not_slash_commands(lang: str) -> None:
    rc, text, _ = await _console("?", lang=lang)
    help_part = text[text.find("?: "):]
    assert ("Help: Red" if lang == "en" else "Pomoc: Czerwony") in help_part
    assert ("Rules (type r, then the topic): setup" if lang == "en"
            else "Zasady (wpisz r, a potem temat): przygotowanie") in help_part
    _plain(text)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_console_text_of_every_help_and_rules_topic_is_plain(lang: str) -> None:
    from bot.terminal.console import console_text, rules_console
    from games.tempus.help_text import help_text
    from lang.i18n import using
    from lang.messages import RULE_TOPICS, t
    from tests.bot.positions import by_kind

    with using(lang):
        for state, seat in by_kind().values():
            text = help_text(state, seat)
            assert "`/tempus" in text or "</tempus" in text  # written for Discord ...
            _plain(console_text(text))  # ... said for a terminal
        for topic in RULE_TOPICS:
            _plain(rules_console(topic))
        for key in ("hint.failed", "help.over", "help.waiting", "help.lobby",
                    "help.lobby_seated", "help.spectator"):
            _plain(console_text(t(key, waiting="x", game=1)))
        assert console_text(t("help.waiting", waiting="x")).count(t("console.key", key="h")) == 1


@pytest.mark.asyncio
async def test_hint_in_polish_numbers() -> None:
    rc, text, _ = await _console("t", lang="pl")
    assert "około 1,5 s" in text and "1.5" not in text
    assert "Podpowiedź: " in text
    _plain(text)


def _first_label(text: str) -> str:
    """The first hex label of the newest select list printed (``    1) B6 — forest``)."""
    return re.findall(r"^    \d+\) ([A-M]\d+)\b", text, re.M)[-1]


@pytest.mark.asyncio
async def test_hex_labels_work_where_the_console_asks_for_a_hex() -> None:
    """A label typed at a select (any case) and straight at the menu prompt."""
    rc, text, script = await _console(
        "1", "zz",                                  # open a hex select, type nonsense
        lambda out: _first_label(out).lower(),      # a label at the menu prompt
        "1", lambda out: _first_label(out),         # and one at the select's prompt
    )
    assert rc == 1
    assert "Not a valid choice." in text
    labels = re.findall(r"Red places a starting token on ([A-M]\d+)\.", text)
    assert len(labels) == 2, text[-1500:]
    assert any("hex labels" in p for p in script.prompts)


@pytest.mark.asyncio
async def test_quitting_asks_first() -> None:
    rc, text, script = await _console("q", "n", "q", "y")
    assert rc == 1 and not script.answers  # the game ended at the second "y", not at EOF
    assert script.prompts == ["> ", "Really quit this game? (y = yes) > ", "> ",
                              "Really quit this game? (y = yes) > "]
    assert text.count("== Player 1 ==") == 2  # "n" went back to the game


@pytest.mark.asyncio
async def test_ctrl_c_asks_before_quitting_too() -> None:
    # Ctrl-C at the menu prompt, "no", Ctrl-C at a select's prompt, Ctrl-C at the question
    rc, text, script = await _console(KeyboardInterrupt, "n", "1", KeyboardInterrupt,
                                      KeyboardInterrupt)
    assert rc == 1 and not script.answers
    assert script.prompts.count("Really quit this game? (y = yes) > ") == 2
    assert "Traceback" not in text


@pytest.mark.asyncio
async def test_ctrl_c_while_the_computers_play_asks_at_the_next_moment() -> None:
    from bot.terminal.console import Interrupts

    interrupts = Interrupts()
    interrupts.handler(2, None)  # Ctrl-C with no prompt waiting: noted, not raised
    assert interrupts.pending
    rc, text, script = await _console("n", "q", "y", interrupts=interrupts)
    assert script.prompts[0] == "Really quit this game? (y = yes) > "
    assert script.prompts[1] == "> " and rc == 1
    interrupts.pending = True  # a second Ctrl-C before the question: stop at once
    with pytest.raises(KeyboardInterrupt):
        interrupts.handler(2, None)


def test_ctrl_c_in_a_real_terminal_session_asks_and_never_prints_a_traceback() -> None:
    """``python -m bot --offline`` with real SIGINTs: the first asks (answered "n": the game
    goes on), a second one at the question quits cleanly."""
    import os
    import select
    import signal
    import subprocess
    import sys
    import time

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "--offline", "--humans", "1", "--seed", "2", "--out", "",
         "--lang", "en"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[3], env=env)
    seen = b""

    def wait_for(marker: bytes, timeout: float = 60.0) -> None:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while not seen.rstrip(b" ").endswith(marker.rstrip(b" ")):
            left = deadline - time.monotonic()
            assert left > 0, f"no {marker!r}; output ends {seen[-500:]!r}"
            ready, _, _ = select.select([proc.stdout], [], [], left)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 65536)
                assert chunk, f"the console ended early: {seen[-500:]!r}"
                seen += chunk

    def interrupt() -> None:
        # a signal that lands between the prompt's write and the read that follows it waits
        # for that read to end (CPython checks signals between calls): let the read begin
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)

    try:
        wait_for(b"> ")
        interrupt()
        wait_for(b"Really quit this game? (y = yes) > ")
        proc.stdin.write(b"n\n")
        proc.stdin.flush()
        wait_for(b"> ")
        interrupt()
        wait_for(b"Really quit this game? (y = yes) > ")
        interrupt()
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err, err.decode()[-2000:]
