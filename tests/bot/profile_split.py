"""Where the bot's time goes: py-spy's samples of the bot and its workers, by kind of work.

``python -m tests.bot.bench_load --profile DIR`` records each bot process (and, with
``--subprocesses``, its render and AI workers) with py-spy during the playing window
(``--gil``: only samples of a thread holding the GIL), in py-spy's ``raw`` format (one
line per stack: frames joined by ``;``, then the count).
:func:`split` sorts the samples: each process is a bot, a render worker or an AI worker
(by what most of its samples run), and each sample goes to the kind of its innermost
frame that has one (a sample in ``enum.py`` called from discord.py's message parsing is
parsing). ``python -m tests.bot.profile_split FILE...`` prints the table as Markdown.

py-spy sees Python frames only: time in C called from Python (orjson, Pillow, SQLite,
ISA-L) counts for the Python line that called it, which is why JSON is found by its
callers. Garbage collection shows as whatever allocated when a collection started; the
bench's own ``gc_ms_per_s`` (from ``gc.callbacks``) measures it instead.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

Rule = tuple[str, Callable[[str, str], bool]]
#: py-spy's frame: ``function (path:line)``, the path relative to the entry of sys.path
#: it was found under (``bot/table/commit.py``, ``asyncio/events.py``, ``threading.py``)
FRAME = re.compile(r"^(.*) \(([^()]*):\d+\)$")


def _under(*prefixes: str) -> Callable[[str, str], bool]:
    return lambda function, path: path.startswith(prefixes)


def _called(*names: str) -> Callable[[str, str], bool]:
    return lambda function, path: function.split(".")[-1] in names


def _any(*rules: Callable[[str, str], bool]) -> Callable[[str, str], bool]:
    return lambda function, path: any(r(function, path) for r in rules)


#: the bot's own worker processes (bot/runtime/worker_pool.py) pickle jobs and answers there
POOL = _under("multiprocessing/", "concurrent/futures/", "pickle.py", "copyreg.py",
              "bot/runtime/worker_pool.py")

#: Kinds of work in the bot process, the first rule a frame matches naming its kind.
BOT_RULES: list[Rule] = [
    ("bench instrumentation (tests/bot/timed_bot.py)", _under("tests/")),
    ("JSON (orjson, json)", _any(_under("bot/json_text.py", "json/"),
                                 _called("_to_json", "_from_json"))),
    ("words (lang, Babel)", _under("lang/", "babel/", "render/words.py")),
    ("storage (bot/store, aiosqlite, sqlite3, asyncpg)", _under(
        "bot/store/", "aiosqlite/", "sqlite3/", "asyncpg/")),
    ("garbage collection: the memory keeper (bot/runtime/memory.py)",
     _under("bot/runtime/memory.py")),
    ("the engine (rules, views)", lambda f, p: p.startswith("engine/")
     and not p.startswith("engine/ai/")),
    ("render in the bot (alt text, overlays)", _under("render/")),
    ("discord.py: views and components (discord/ui)", _under("discord/ui/")),
    ("discord.py: building and sending requests (http, webhooks, aiohttp)", _under(
        "discord/http.py", "discord/webhook/", "discord/file.py", "aiohttp/", "multidict/",
        "yarl/", "discord/utils.py")),
    ("discord.py: gateway, parsing events, models", _under("discord/")),
    ("ours: messages, panels, components (bot/publish, bot/tempus, bot/client)",
     _under("bot/publish/", "games/tempus/", "bot/client/")),
    ("worker pool: passing jobs (pickle, multiprocessing)", _under("bot/runtime/worker_pool.py")),
    ("ours: the table service, timing, runtime (bot/table, bot/timing, bot/runtime)",
     _under("bot/table/", "bot/timing/", "bot/runtime/", "bot/cluster/")),
    ("ours: other", _under("bot/")),
    ("worker pool: passing jobs (pickle, multiprocessing)", POOL),
    ("scheduling (asyncio, threads, selectors)", _under("asyncio/", "selectors.py",
                                                        "threading.py", "queue.py")),
    ("logging", _under("logging/")),
]

#: Kinds a whole stack belongs to whatever its innermost frames are: the engine's work
#: while a game is loaded from its record is loading, not playing.
BOT_STACK_RULES: list[tuple[str, Callable[[str], bool]]] = [
    ("the engine: loading games (records replayed)",
     lambda frame: frame.startswith(("Record.new_state (", "replay (engine/",
                                     "replay_move ("))),
]

#: Kinds of work in a render worker.
RENDER_RULES: list[Rule] = [
    ("board: quantising (Pillow)", _called("quantize")),
    ("map layers (drawn, or read from disk)", _any(
        _under("render/terrain_layer.py", "render/layer_cache.py"),
        _called("read_palette_png"))),
    ("board: encoding (render/png_bands.py, ISA-L)", _under("render/png_bands.py",
                                                             "render/encode.py")),
    ("board: comparing with the kept board (render/scene.py)", _called(
        "changed_boxes", "_in_order", "merge")),
    ("alt text and words", _under("render/alt_text.py", "render/words.py", "lang/",
                                  "babel/")),
    ("hand images (render/hand.py)", _under("render/hand.py")),
    ("crops of private menus", _called("render_crop", "crop_image")),
    ("board: drawing (steps, sprites, text, panel; Pillow's pastes)", _under("render/")),
    ("worker pool: passing jobs (pickle, multiprocessing)", POOL),
]

#: Kinds of work in an AI worker.
AI_RULES: list[Rule] = [
    ("computer players (engine/ai)", _under("engine/ai/")),
    ("the engine (rules)", _under("engine/")),
    ("worker pool: passing jobs (pickle, multiprocessing)", POOL),
]

PROCESS = re.compile(r"^process (\d+):")


def read_raw(lines: Iterable[str]) -> Counter[tuple[str, ...]]:
    """Stacks (outermost frame first) and their sample counts from py-spy's raw format."""
    out: Counter[tuple[str, ...]] = Counter()
    for line in lines:
        line = line.rstrip("\n")
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            out[tuple(stack.split(";"))] += int(count)
    return out


def _process(stack: tuple[str, ...]) -> str:
    """The process a stack was sampled in: the innermost ``process`` frame (py-spy
    writes a child's below its parent's)."""
    pid = "?"
    for frame in stack:
        m = PROCESS.match(frame)
        if m is None:
            break
        pid = m.group(1)
    return pid


def kind_of(stack: tuple[str, ...], rules: list[Rule],
            stack_rules: list[tuple[str, Callable[[str], bool]]] | None = None) -> str:
    for name, within in stack_rules or ():
        if any(within(frame) for frame in stack):
            return name
    for frame in reversed(stack):
        m = FRAME.match(frame)
        if m is None:
            continue
        function, path = m.group(1), m.group(2)
        for name, matches in rules:
            if matches(function, path):
                return name
    return "other"


def split(stacks: Counter[tuple[str, ...]]) -> dict[str, Counter[str]]:
    """Samples by role (``bot``, ``render worker``, ``AI worker``) and kind of work."""
    by_process: dict[str, Counter[tuple[str, ...]]] = {}
    for stack, n in stacks.items():
        by_process.setdefault(_process(stack), Counter())[stack] += n
    out: dict[str, Counter[str]] = {}
    for samples in by_process.values():
        render = sum(n for s, n in samples.items() if any("(render/" in f for f in s))
        ai = sum(n for s, n in samples.items() if any("(engine/ai/" in f for f in s))
        pool = sum(n for s, n in samples.items()
                   if any("(multiprocessing/process.py" in f for f in s))
        total = sum(samples.values())
        if pool > total / 2 and render >= ai:
            role, rules = "render worker", RENDER_RULES
        elif pool > total / 2:
            role, rules = "AI worker", AI_RULES
        else:
            role, rules = "bot", BOT_RULES
        kinds = out.setdefault(role, Counter())
        for stack, n in samples.items():
            kinds[kind_of(stack, rules, BOT_STACK_RULES if role == "bot" else None)] += n
    return out


def markdown(table: dict[str, Counter[str]],
             cpu_ms: dict[str, float] | None = None) -> str:
    """A table per role; with the role's measured CPU time per action (``cpu_ms``), each
    kind's share of it. (The samples are wall time holding the GIL: on a busy machine a
    thread is also counted while it waits for a core, so the shares are the measure, and
    the bench's CPU time is what they share out.)"""
    lines = []
    for role in ("bot", "render worker", "AI worker"):
        kinds = table.get(role)
        if not kinds:
            continue
        total = sum(kinds.values())
        per = (cpu_ms or {}).get(role)
        head = f"| {role}: kind of work | samples | share |"
        head += " CPU ms per action |" if per is not None else ""
        lines += [head, "|" + " --- |" * (3 + (per is not None))]
        for name, n in [*kinds.most_common(), ("all", total)]:
            row = f"| {name} | {n} | {100 * n / total:.1f} % |"
            if per is not None:
                row += f" {per * n / total:.2f} |"
            lines.append(row)
        lines.append("")
    return "\n".join(lines)


def cpu_split(table: dict[str, Counter[str]], bot_ms: float, workers_ms: float
              ) -> dict[str, float]:
    """The bench's CPU per action by role: the workers' shared between render and AI
    workers as their samples are."""
    render = sum(table.get("render worker", Counter()).values())
    ai = sum(table.get("AI worker", Counter()).values())
    share = render / (render + ai) if render + ai else 0.0
    return {"bot": bot_ms, "render worker": workers_ms * share,
            "AI worker": workers_ms * (1 - share)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.profile_split",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", help="py-spy record --format raw outputs")
    parser.add_argument("--bot-cpu-ms", type=float,
                        help="the bench's bot_cpu_ms_per_action of that window")
    parser.add_argument("--workers-cpu-ms", type=float,
                        help="the bench's worker_cpu_ms_per_action of that window")
    args = parser.parse_args(argv)
    stacks: Counter[tuple[str, ...]] = Counter()
    for name in args.files:
        stacks.update(read_raw(Path(name).read_text().splitlines()))
    table = split(stacks)
    cpu = None if args.bot_cpu_ms is None or args.workers_cpu_ms is None else \
        cpu_split(table, args.bot_cpu_ms, args.workers_cpu_ms)
    print(markdown(table, cpu))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
