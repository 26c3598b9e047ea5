"""``python -m tests.bot.bench_attention``: what a game costs the people at it, in attention.

Plays the table the attention budget is about through the fake Discord, with the real bot
at its default computer pace (``ai_delay`` 0.8 s unless ``--ai-delay``): three seats, two
people (scripted random clicks, as in the end-to-end tests) and one computer (``normal``),
once on an English server and once on a Polish one. Along the way a person asks for help
("?"), a hint and takes a step back (Undo), and a spectator asks for the board. Prints one
JSON line per game and a summary:

per person (by user id):

- ``pings``: new public messages (in the game's thread or its channel) that notify them: they
  are mentioned in the text and ``allowed_mentions`` lets the mention through. Edits never
  notify (Discord), so they do not count;
- ``dms``: new DM messages to them (each notifies), ``dm_secret`` of them secret choices;
  ``dm_edits``: edits of DMs (silent);
- ``ephemerals``: private replies to their clicks and commands (they asked for them).

per game: ``thread_posts`` (new messages in the game's thread), ``thread_edits``,
``boards`` (board images uploaded, posts and edits), ``channel_posts`` (what a spectator of
the channel sees), ``turns`` (turns and phases, from the game record), ``posts_per_turn``,
``computer_posts`` (thread posts whose prompt, as posted, only waits for the computer),
``own_turns`` (per person: turn messages that asked them to act when posted),
``rate_limited`` (429s the fake answered).

``--away`` plays the same game with the people away: before each of their decisions the
bot's clock moves on ``--away-minutes`` (default 6): every turn message finds them away.

``--leave`` plays it as people do at the daily pace: after each of their clicks a person
walks away with chance ``--leave-chance`` (0.4) for 20 minutes to 10 hours (uniform, on
the bot's clock); meanwhile the bot's clock moves on to the next reminder, nudge or
deadline the scheduler holds, or to their return. It adds ``owed``: for every decision
owed to a person while they were away (a seat owing since a version), the minutes from
the decision becoming theirs to their first notification about it (a ping in the game's
thread or channel, or a new DM), or to their return if nothing told them first; its
distribution (``p50``, ``p90``, ``max``) and how many were noticed only on return.

Buckets run ten times faster than Discord's (5 writes per 0.5 s) unless ``--real-buckets``;
the bot paces itself to the same period.

The lesson (``/tempus learn``) is counted by its own bench, ``python -m
tests.bot.bench_lesson``: the same counts (posts, edits, pings, DMs) for the whole lesson.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bot.timing.time_source import FakeClock
from lang import i18n
from lang.messages import t
from tests.bot.e2e import (
    AVOID_OPS,
    FakePlayer,
    _op,
    bot_running,
    final_record,
    game_over,
    in_process,
    panel_message,
    play_channel,
    play_until,
    prompt_users,
    turns_in,
)
from tests.bot.fake_discord import FakeDiscord, Message, running

#: the people of each game, the spectator, and the server's language per game
PEOPLE = (11, 12)
SPECTATOR = 13
LANGUAGES = ("en-US", "pl")


def speak(fake: FakeDiscord, locale: str) -> None:
    """Every interaction carries ``locale`` as the user's and the server's language."""
    send = fake._dispatch

    async def dispatch(event: str, d: dict[str, Any]) -> int | None:
        if event == "INTERACTION_CREATE":
            d = {**d, "locale": locale}
            if "guild_id" in d:
                d["guild_locale"] = locale
        return await send(event, d)

    # on purpose, on this one fake: every gateway event passes through the wrapper
    fake._dispatch = dispatch  # type: ignore[method-assign]


#: --leave: people walk away after a click this often, for this long (minutes)
LEAVE_CHANCE = 0.4
LEAVE_MINUTES = (20.0, 600.0)


class Leaving:
    """--leave: who is away until when, and every decision owed to a person with when it
    became theirs, when it ended, and when they were first told of it (bot's clock)."""

    def __init__(self, clock: FakeClock, rng: random.Random, chance: float) -> None:
        self.clock = clock
        self.rng = rng
        self.chance = chance
        self.back_at: dict[int, float] = {}
        #: (seat, since) -> [user, owed at, ended at | None, away when owed]
        self.decisions: dict[tuple[int, int], list[Any]] = {}
        #: user -> times they were notified (a ping or a new DM)
        self.told: dict[int, list[float]] = {}

    def away(self, user: int) -> bool:
        return self.back_at.get(user, 0.0) > self.clock.now()

    def clicked(self, user: int) -> None:
        """The person applied an action: maybe they walk away now."""
        if self.rng.random() < self.chance:
            lo, hi = LEAVE_MINUTES
            self.back_at[user] = self.clock.now() + self.rng.uniform(lo, hi) * 60

    def note_message(self, m: Message, pinged: list[int], public: set[int]) -> None:
        now = self.clock.now()
        if m.where == "dm" and m.to_user is not None:
            self.told.setdefault(m.to_user, []).append(now)
        elif m.public and m.channel_id in public:
            for u in pinged:
                self.told.setdefault(u, []).append(now)

    def observe(self, since: dict[int, int], seats: list[Any]) -> None:
        """The table as it stands: decisions that began and ended since the last look."""
        now = self.clock.now()
        open_now = set()
        for seat, v in since.items():
            user = seats[seat].user_id
            if seats[seat].is_ai or user not in PEOPLE:
                continue
            open_now.add((seat, v))
            if (seat, v) not in self.decisions:
                self.decisions[(seat, v)] = [user, now, None, self.away(user)]
        for key, d in self.decisions.items():
            if d[2] is None and key not in open_now:
                d[2] = now

    def report(self) -> dict[str, Any]:
        waits: list[float] = []
        on_return = 0
        for user, owed, ended, away in self.decisions.values():
            if not away:
                continue
            end = ended if ended is not None else self.clock.now()
            told = [t for t in self.told.get(user, []) if owed <= t <= end]
            back = self.back_at.get(user, owed)
            if told:
                waits.append(min(told) - owed)
            else:
                on_return += 1
                waits.append(max(0.0, min(back, end) - owed))
        minutes = sorted(w / 60 for w in waits)

        def pct(q: float) -> float:
            return round(minutes[min(len(minutes) - 1, int(q * len(minutes)))], 1) \
                if minutes else 0.0
        return {"away_decisions": len(minutes), "noticed_on_return": on_return,
                "p50_min": pct(0.5), "p90_min": pct(0.9),
                "max_min": round(minutes[-1], 1) if minutes else 0.0,
                "minutes": [round(m, 1) for m in minutes]}


async def play_leaving(fake: FakeDiscord, bot: Any, settled: Callable[[], Any], channel: int,
                       people: dict[int, FakePlayer], leaving: Leaving, game_id: int, *,
                       max_steps: int = 20_000) -> int:
    """:func:`play_until` with people who walk away after a click (``leaving``): while
    everyone who owes a decision is away, the bot's clock moves on to the next thing the
    scheduler holds, or to the first return."""
    applied = 0
    clock = leaving.clock
    for _ in range(max_steps):
        await settled()
        table = await bot.service.tables.get(game_id)
        leaving.observe(dict(table.since), list(table.seats))
        if game_over(fake, channel):
            return applied
        msg = panel_message(fake, channel)
        if msg is None:
            await fake.wait_for_change(60)
            continue
        owing = [u for u in prompt_users(msg) if u in people]
        here = [u for u in owing if not leaving.away(u)]
        if here:
            if await people[here[0]].act_on(msg):
                applied += 1
                leaving.clicked(here[0])
            continue
        waiting = [leaving.back_at[u] for u in owing]
        if not waiting:  # a computer player is thinking, or a post is on its way
            await fake.wait_for_change(60)
            continue
        target = min(waiting)
        due = bot.scheduler.next_due() if bot.scheduler is not None else None
        clock.set(min(target, due) if due is not None else target)
        if bot.scheduler is not None:
            bot.scheduler.wake()
            await bot.scheduler.settle()
    raise AssertionError(f"the game did not end in {max_steps} steps")


class AwayPlayer(FakePlayer):
    """A person who comes back to the game only after ``minutes`` for each decision."""

    def __init__(self, *args: Any, clock: FakeClock, minutes: float,
                 bot: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clock = clock
        self.minutes = minutes
        self.bot = bot

    async def act_on(self, msg: Message, depth: int = 0, start: int | None = None) -> bool:
        if depth == 0:
            self.clock.advance(self.minutes * 60)
            if self.bot is not None and self.bot.scheduler is not None:
                # what the bot's clock brought meanwhile (a reminder, a nudge) is out
                # before the person is back, as it would be after minutes
                self.bot.scheduler.wake()
                await self.bot.scheduler.settle()
                await in_process(self.bot)()
        return await super().act_on(msg, depth, start)


@contextlib.contextmanager
def watching(fake: FakeDiscord) -> Iterator[list[tuple[Message, str, list[int]]]]:
    """Every new message as it was posted: (message, its text then, who it pinged)."""
    seen: list[tuple[Message, str, list[int]]] = []
    old = fake.on_message

    def note(m: Message) -> None:
        seen.append((m, m.content, list(m.mentions)))
        if old is not None:
            old(m)
    fake.on_message = note
    try:
        yield seen
    finally:
        fake.on_message = old


async def extras(fake: FakeDiscord, channel: int, rng: random.Random) -> None:
    """What the issue's newcomers did besides playing: "?" help, a hint, an undo, a
    spectator's board."""
    msg = panel_message(fake, channel)
    if msg is None:
        return
    owing = [u for u in prompt_users(msg) if u in PEOPLE]
    who = owing[0] if owing else PEOPLE[0]
    for cid in msg.custom_ids():
        if _op(cid) == "help":
            await fake.click(who, msg, cid)
            break
    await fake.slash(who, channel, "hint")
    await fake.slash(SPECTATOR, channel, "board")


async def try_undo(fake: FakeDiscord, channel: int) -> bool:
    """A person takes back a step, if the turn message offers it."""
    msg = panel_message(fake, channel)
    if msg is None:
        return False
    for cid in msg.custom_ids():
        if _op(cid) == "undo":
            for who in PEOPLE:
                inter = await fake.click(who, msg, cid)
                if "cannot" not in inter.text().lower():
                    return True
    return False


def after(actions: int) -> Callable[[int, Message], bool]:
    """A stop for :func:`play_until`: once the people have applied ``actions`` actions."""
    return lambda applied, _panel: applied >= actions


async def one_game(locale: str, seed: int, *, ai_delay: float, period: float,
                   away: float | None, leave: float | None = None) -> dict[str, Any]:
    channel = 2000
    clock = FakeClock()
    with tempfile.TemporaryDirectory() as tmp:
        async with running(channel_ids=(channel,), post_per=period, edit_per=period,
                           webhook_per=period * 0.4) as fake:
            speak(fake, locale)
            async with bot_running(fake, Path(tmp) / "bench.db", seed=seed, workers=0,
                                   ai_delay=ai_delay, clock=clock) as bot:
                with watching(fake) as seen:
                    await fake.slash(PEOPLE[0], channel, "new", seats=3)
                    await fake.slash(PEOPLE[1], channel, "join")
                    await fake.slash(PEOPLE[0], channel, "table addbot", level="normal")
                    await fake.slash(PEOPLE[0], channel, "start")
                    rng = random.Random(seed)
                    players: dict[int, FakePlayer] = {
                        u: (AwayPlayer(fake, u, channel, rng, clock=clock, minutes=away,
                                       bot=bot)
                            if away is not None else FakePlayer(fake, u, channel, rng))
                        for u in PEOPLE}
                    # random play never undoes (AVOID_OPS): one undo, the extras, then on
                    assert "undo" in AVOID_OPS
                    settled = in_process(bot)
                    undone = False
                    applied = 0
                    leaving = None
                    if leave is not None:
                        assert bot.service is not None
                        leaving = Leaving(clock, random.Random(seed + 7), leave)
                        public_ids: set[int] = set()

                        def told(m: Message) -> None:
                            public_ids.update({channel, play_channel(fake, channel)})
                            assert leaving is not None
                            leaving.note_message(m, list(m.mentions), public_ids)
                        chained = fake.on_message

                        def note(m: Message) -> None:
                            told(m)
                            if chained is not None:
                                chained(m)
                        fake.on_message = note
                        gid = await bot.service.tables.last_game_in_channel(channel)
                        applied = await play_leaving(fake, bot, settled, channel, players,
                                                     leaving, gid)
                    for goal in (40, 80, 120, 160, 200):
                        if leaving is not None:
                            break
                        applied += await play_until(fake, settled, channel, players,
                                                    stop=after(goal - applied))
                        if panel_message(fake, channel) is None:
                            break
                        await settled()
                        if goal == 40:
                            await extras(fake, channel, rng)
                        if not undone:
                            undone = await try_undo(fake, channel)
                    await play_until(fake, settled, channel, players)
                    await settled()
                    fake.check()
                    assert bot.service is not None
                    game_id = await bot.service.tables.last_game_in_channel(channel)
                    seats = (await bot.service.tables.get(game_id)).seats
                    # the game's stored actions (an undone one is no longer stored)
                    actions = len(await bot.service.storage.actions(game_id))
            out = measure(fake, channel, seen, seats, locale, undone, actions)
            if leaving is not None:
                out["owed"] = leaving.report()
                out["days"] = round((clock.now() - 1_800_000_000.0) / 86400, 1)
            return out


def measure(fake: FakeDiscord, channel: int, seen: list[tuple[Message, str, list[int]]],
            seats: list[Any], locale: str, undone: bool, actions: int) -> dict[str, Any]:
    thread = play_channel(fake, channel)
    public = {channel, thread}
    computers = [s.name for s in seats if s.is_ai]
    people: dict[str, dict[str, int]] = {}
    with i18n.using(locale):
        secret = t("secret.intro", game=1, prompt="")
    for u in (*PEOPLE, SPECTATOR):
        dms = [text for m, text, _ in seen if m.where == "dm" and m.to_user == u]
        people[str(u)] = {
            "pings": sum(1 for m, _, pinged in seen
                         if m.channel_id in public and m.public and u in pinged),
            "dms": len(dms),
            # of which secret choices (sent to someone away), the rest being the hand
            # message and notices (e.g. that Discord refuses posts on a loaded machine)
            "dm_secret": sum(1 for text in dms if text.startswith(secret)),
            "dm_edits": sum(m.edits for m in fake.dms(u)),
            "ephemerals": sum(1 for m, _, _ in seen
                              if m.where == "ephemeral" and m.to_user == u),
        }
    posts = [(m, text) for m, text, _ in seen if m.channel_id == thread and m.public]
    own_turns = {str(u): sum(1 for _, text in posts if u in _named(text)) for u in PEOPLE}
    computer_posts = sum(1 for _, text in posts
                         if not _named(text) and any(n in _prompt(text) for n in computers))
    writes = fake.public_writes(thread)
    turns = turns_in(final_record(fake, channel))
    thread_posts = len(posts)
    thread_edits = sum(m.edits for m in fake.channel_messages(thread))
    boards = sum(1 for w in writes if w.files and _has_board(fake, w.message_id))
    return {
        "locale": locale, "people": people, "own_turns": own_turns,
        "thread_posts": thread_posts,
        "thread_edits": thread_edits, "boards": boards,
        # per stored action: games of different lengths compare by these
        "actions": actions, "edits_per_action": round(thread_edits / max(1, actions), 3),
        "boards_per_action": round(boards / max(1, actions), 3),
        "channel_posts": len(fake.channel_messages(channel)) if thread != channel else 0,
        "turns": turns, "posts_per_turn": round(thread_posts / max(1, turns), 2),
        "computer_posts": computer_posts, "undo": undone,
        "rate_limited": fake.rate_limited(),
    }


def _prompt(text: str) -> str:
    return text.rsplit("\n", 1)[-1]


def _named(text: str) -> list[int]:
    return [u for u in PEOPLE if f"<@{u}>" in _prompt(text)]


def _has_board(fake: FakeDiscord, message_id: int) -> bool:
    m = fake.messages.get(message_id)
    return m is not None and any(a.filename == "board.png" for a in m.attachments)


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    per_person = [p for g in games for u, p in g["people"].items() if int(u) in PEOPLE]
    own = [n for g in games for n in g["own_turns"].values()]
    return {
        "games": len(games),
        "pings_per_person_max": max(p["pings"] for p in per_person),
        "dms_per_person_max": max(p["dms"] for p in per_person),
        "pings_per_own_turn_max": round(max(p["pings"] / max(1, n)
                                            for p, n in zip(per_person, own, strict=True)), 2),
        "thread_posts": [g["thread_posts"] for g in games],
        "thread_edits": [g["thread_edits"] for g in games],
        "posts_per_turn_max": max(g["posts_per_turn"] for g in games),
        "computer_posts": [g["computer_posts"] for g in games],
        "channel_posts": [g["channel_posts"] for g in games],
        "rate_limited": [g["rate_limited"] for g in games],
        **({"owed": [{k: v for k, v in g["owed"].items() if k != "minutes"} for g in games]}
           if all("owed" in g for g in games) else {}),
    }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    t0 = time.perf_counter()
    games = []
    for i, locale in enumerate(args.languages):
        one = await one_game(locale, args.seed + i, ai_delay=args.ai_delay,
                             period=5.0 if args.real_buckets else 0.5,
                             away=args.away_minutes if args.away else None,
                             leave=args.leave_chance if args.leave else None)
        print(json.dumps(one), flush=True)
        games.append(one)
    return {**summary(games), "away": args.away, "leave": args.leave,
            "ai_delay": args.ai_delay,
            "seconds": round(time.perf_counter() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.bench_attention",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai-delay", type=float, default=0.8,
                        help="seconds a computer waits before each move (the bot's default)")
    parser.add_argument("--languages", nargs="+", default=list(LANGUAGES))
    parser.add_argument("--away", action="store_true",
                        help="the people come back only after --away-minutes for each step")
    parser.add_argument("--away-minutes", type=float, default=6.0)
    parser.add_argument("--leave", action="store_true",
                        help="people walk away after a click (--leave-chance), for 20 minutes "
                             "to 10 hours of the bot's clock")
    parser.add_argument("--leave-chance", type=float, default=LEAVE_CHANCE)
    parser.add_argument("--real-buckets", action="store_true",
                        help="Discord's buckets at their real speed (5 writes per 5 s)")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(main_async(args))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
