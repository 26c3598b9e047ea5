"""The documentation stands on its own: docs/rules.md defines every rule id the code and
the tests cite (each once), keeps every id of the rules it was written from, and agrees
with the data files; the links of README.md and docs/*.md stay inside the repository."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
COMPONENTS = ROOT / "docs" / "components.md"
DATA = ROOT / "data" / "tempus"
#: the rules text docs/rules.md was written from, where the project's workspace keeps it
ORIGINAL_RULES = ROOT.parent / "shared" / "tempus" / "RULES.md"

#: where rule ids are cited: the code, its catalogues and data, and the tests
CITING = ("engine", "bot", "render", "lang", "data", "tests")
CITING_SUFFIXES = {".py", ".json", ".po", ".pot", ".md"}

_HEADING_ID = re.compile(r"^#{2,3} (R-[A-Z]+):", re.M)
_BOLD_ID = re.compile(r"^- \*\*(R-[A-Z]+-[A-Z0-9]+)\b", re.M)
_CITED_ID = re.compile(r"(?<![A-Za-z0-9-])R-[A-Z]{2,}(?:-[A-Z0-9]+)?(?![A-Za-z0-9])")


def defined_ids(text: str) -> list[str]:
    """The ids a rules text defines: section headings (``## R-MOVE: ...``) and rules
    (``- **R-MOVE-1** ...``), in order, repeats included."""
    found = [(m.start(), m.group(1)) for m in _HEADING_ID.finditer(text)]
    found += [(m.start(), m.group(1)) for m in _BOLD_ID.finditer(text)]
    return [i for _, i in sorted(found)]


def rules_ids() -> list[str]:
    return defined_ids(RULES.read_text(encoding="utf-8"))


def _citing_files() -> list[Path]:
    files = []
    for top in CITING:
        for p in sorted((ROOT / top).rglob("*")):
            if p.suffix in CITING_SUFFIXES and p.is_file() and p != Path(__file__).resolve():
                files.append(p)
    return files


def cited_ids() -> dict[str, set[str]]:
    """Every rule id cited in the code and the tests -> the files citing it. Ids are
    written as in the rules (upper case) or, in test names, in lower case with
    underscores and a rule number (``test_r_move_4_...``)."""
    sections = {i.removeprefix("R-").lower() for i in rules_ids() if i.count("-") == 1}
    lower = re.compile(r"(?<![a-z0-9])r_(" + "|".join(sorted(sections)) + r")_(\d+)(?!\d)")
    cited: dict[str, set[str]] = {}
    for p in _citing_files():
        text = p.read_text(encoding="utf-8", errors="replace")
        ids = set(_CITED_ID.findall(text))
        ids |= {f"R-{s.upper()}-{n}" for s, n in lower.findall(text)}
        for i in ids:
            cited.setdefault(i, set()).add(str(p.relative_to(ROOT)))
    return cited


def test_rules_define_each_id_once():
    ids = rules_ids()
    assert len(ids) > 80
    twice = sorted({i for i in ids if ids.count(i) > 1})
    assert twice == [], f"defined more than once in docs/rules.md: {twice}"


def test_every_cited_rule_id_is_in_the_rules():
    cited = cited_ids()
    assert len(cited) > 70  # the pattern still finds the citations
    missing = {i: sorted(files) for i, files in cited.items() if i not in set(rules_ids())}
    assert missing == {}, f"cited but not defined in docs/rules.md: {missing}"


def test_every_id_of_the_original_rules_is_kept():
    if not ORIGINAL_RULES.exists():
        pytest.skip(f"{ORIGINAL_RULES} (the rules docs/rules.md was written from) "
                    "is not beside the checkout")
    original = set(defined_ids(ORIGINAL_RULES.read_text(encoding="utf-8")))
    assert len(original) > 80
    assert sorted(original - set(rules_ids())) == []


def _md_table(text: str, header: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header row starts with ``header``."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip().strip("*") for c in line.strip().strip("|").split("|")])
    return rows


def test_component_tables_agree_with_the_data_files():
    doc = COMPONENTS.read_text(encoding="utf-8")
    tiles = json.loads((DATA / "tiles.json").read_text(encoding="utf-8"))["tiles"]
    assert _md_table(doc, "| tile |") == [
        [str(t["id"]), t["centre"], *t["ring"]] for t in tiles]
    cards = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))["types"]
    rows = {r[0]: r[1:] for r in _md_table(doc, "| type |")}
    for t in cards:
        assert rows[t["name"]] == [str(t["backgrounds"].get(k, 0)) for k in "GFWH"], t["name"]
    eras = json.loads((DATA / "eras.json").read_text(encoding="utf-8"))["eras"]
    doc_eras = {r[0]: r[1].split()[0] for r in _md_table(doc, "| era | terrain |")}
    assert doc_eras == {e["name"]: e["terrain"] for e in eras if e["terrain"]}


def test_era_table_of_the_rules_agrees_with_the_data():
    board = json.loads((DATA / "board.json").read_text(encoding="utf-8"))
    eras = json.loads((DATA / "eras.json").read_text(encoding="utf-8"))["eras"]
    rows = _md_table(RULES.read_text(encoding="utf-8"), "| era | move")
    assert [r[0] for r in rows] == [e["name"] for e in eras]
    for r, e in zip(rows, eras, strict=True):
        terrain = board["terrains"][e["terrain"]] if e["terrain"] else ""
        if e.get("final"):
            assert r[8] == terrain, e["name"]
            continue
        sea = "yes" if e["sea"] else "no"
        assert r == [e["name"], str(e["move"]), str(e["distance"]), str(e["growth"]),
                     str(e["stack"]), sea, f"{e['draw']}/{e['limit']}", str(e["actions"]),
                     terrain], e["name"]


def _slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


_LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("doc", ["README.md", *sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))])
def test_links_stay_inside_the_repository(doc):
    path = ROOT / doc
    for target in _LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        assert dest.is_relative_to(ROOT), f"{doc}: {target} leaves the repository"
        assert dest.exists(), f"{doc}: {target} does not exist"
        if anchor and dest.suffix == ".md":
            heads = re.findall(r"^#+ (.+)$", dest.read_text(encoding="utf-8"), re.M)
            assert anchor in {_slug(h) for h in heads}, f"{doc}: no heading for {target}"


_PACKAGE_LINE = re.compile(r"^(?:### )?`((?:engine|render|lang|games|bot)(?:/[a-z_]+)*)/`")
_MODULE_ITEM = re.compile(r"^- `([a-z0-9_]+\.py)`:")


def test_architecture_names_every_module():
    """docs/architecture.md gives one line per module: a module added, moved or removed
    shows here until its line is written."""
    listed = set()
    package = None
    for line in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").splitlines():
        m = _PACKAGE_LINE.match(line)
        if m:
            package = m.group(1)
            continue
        m = _MODULE_ITEM.match(line)
        if m and package is not None:
            listed.add(f"{package}/{m.group(1)}")
    modules = {str(p.relative_to(ROOT)) for top in ("engine", "render", "lang", "games", "bot")
               for p in (ROOT / top).rglob("*.py")}
    assert sorted(modules - listed - {m for m in modules if m.endswith("/__init__.py")}) == []
    assert sorted(listed - modules) == []
