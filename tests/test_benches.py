"""Every benchmark command still starts: each bench module (``tests/**/bench*.py``, the
profile's table, every ``python -m tests.…`` the README and docs/ quote, the benchmarks of
``render`` and ``engine.ai``) imports and its ``--help`` parses, as ``python -m`` runs it,
and names every option the README and docs/ quote it with.

No bench runs here (their numbers are printed by hand, never asserted); a bench that no
longer imports, or whose argument parser breaks, fails the suite instead of waiting for
the next person who runs it. A bench whose call no longer matches the code it drives is
mypy's to find (pyproject.toml checks the benches).
"""

from __future__ import annotations

import functools
import re
import runpy
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the benchmark commands outside tests/, with the arguments that reach their parser
COMMANDS = (("render", ["bench"]), ("engine.ai", ["tournament"]), ("engine.ai", ["ladder"]),
            ("engine.ai", ["summarise"]), ("engine.ai", ["tune"]), ("engine.ai", ["anatomy"]),
            ("engine.ai", ["newcomer"]))
#: bench commands whose names do not start with "bench"
OTHERS = ("tests.bot.profile_split",)
_QUOTED = re.compile(r"python -m (tests(?:\.\w+)+|render bench|engine\.ai \w+)([^`|\n]*)")
_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


@functools.cache
def quoted() -> dict[str, set[str]]:
    """The benchmark commands README.md and docs/ tell people to run (``tests.bot.bench``,
    ``engine.ai ladder``) -> the options they are quoted with."""
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    out: dict[str, set[str]] = {}
    for p in docs:
        for command, rest in _QUOTED.findall(p.read_text(encoding="utf-8")):
            out.setdefault(command, set()).update(_OPTION.findall(rest))
    return out


def quoted_modules() -> set[str]:
    return {c for c in quoted() if c.startswith("tests.")}


def bench_modules() -> list[str]:
    found = {_module(p) for p in (ROOT / "tests").rglob("bench*.py")}
    return sorted(found | set(OTHERS) | quoted_modules())


def test_the_benches_are_found() -> None:
    benches = bench_modules()
    assert {"tests.bot.bench_load", "tests.engine.bench_ai"} <= set(benches)
    assert quoted_modules() <= set(benches)
    others = {c for c in quoted() if not c.startswith("tests.")}
    assert others <= {" ".join((m, *a)) for m, a in COMMANDS}


def test_every_quoted_command_names_a_module() -> None:
    for name in quoted_modules():
        assert (ROOT / (name.replace(".", "/") + ".py")).is_file(), \
            f"the docs quote python -m {name}, which is no module"


def _help(module: str, args: list[str], monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.setattr(sys, "argv", [module, *args, "--help"])
    with warnings.catch_warnings(), pytest.raises(SystemExit) as exit_:
        # runpy warns that a module other tests imported already is run again as
        # __main__: that is what python -m does with it, and what this test wants
        warnings.filterwarnings("ignore", "'.*' found in sys.modules", RuntimeWarning)
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    assert exit_.value.code in (0, None), f"{module} --help exits with {exit_.value.code}"
    out = capsys.readouterr().out
    assert out.startswith("usage:"), out
    command = " ".join((module, *args))
    missing = sorted(o for o in quoted().get(command, ())
                     if not re.search(re.escape(o) + r"(?![\w-])", out))
    assert missing == [], f"the docs quote python -m {command} with {missing}, unknown to it"
    return out


@pytest.mark.parametrize("module", bench_modules())
def test_bench_starts(module: str, monkeypatch: pytest.MonkeyPatch,
                      capsys: pytest.CaptureFixture[str]) -> None:
    _help(module, [], monkeypatch, capsys)


@pytest.mark.parametrize(("module", "args"), COMMANDS,
                         ids=[" ".join((m, *a)) for m, a in COMMANDS])
def test_command_starts(module: str, args: list[str], monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    assert args[0] in _help(module, args, monkeypatch, capsys)
