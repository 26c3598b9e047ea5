"""The vendored Discord Embedded App SDK: the committed bundle is the one its manifest, its
licences and the lockfile of tools/discord_sdk describe, and a page can import it as it is.

The files are made by tools/discord_sdk/build.sh (which needs npm); these tests only read
them, so a bundle edited by hand, or a lock changed without running the build again, fails.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
VENDOR = ROOT / "bot" / "web" / "static" / "vendor"
BUNDLE = VENDOR / "discord-embedded-app-sdk.mjs"
MANIFEST = VENDOR / "discord-embedded-app-sdk.json"
LICENSES = VENDOR / "discord-embedded-app-sdk.LICENSES.txt"
TOOLS = ROOT / "tools" / "discord_sdk"
SDK = "@discord/embedded-app-sdk"
VERSION = "2.5.0"
#: a page downloads the whole file before its first frame; 2.5.0 is about 160 KB
MAX_BYTES = 400 * 1024
#: the names the page and its tests rely on
NEEDED = {"DiscordSDK", "DiscordSDKMock", "Events", "RPCCloseCodes", "Common", "patchUrlMappings"}
#: the line between two packages in the LICENSES file
RULE = "=" * 78

# any import left for the browser to resolve: `import"x"`, `import{a}from"x"`, `import a from`,
# `import*as a from`, `import("x")` (not a property such as `foo.import(`)
IMPORT = re.compile(r"""(?<![.\w$])import\s*(?:\(|["'`{*]|[\w$]+\s*(?:,|\bfrom\b))""")
EXPORT = re.compile(r"(?<![.\w$])export\b")
# esbuild's ESM output ends with the one export clause, of local names only (no `from`)
EXPORT_CLAUSE = re.compile(r"export\s*\{([^}]*)\}\s*;?\s*\Z")


def manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(MANIFEST.read_text(encoding="utf-8"))
    return data


def lock_packages() -> dict[str, Any]:
    lock = json.loads((TOOLS / "package-lock.json").read_text(encoding="utf-8"))
    packages: dict[str, Any] = lock["packages"]
    return packages


def licence_sections() -> dict[str, list[str]]:
    """name@version -> the lines of its section (its licence name, file and text)."""
    parts = LICENSES.read_text(encoding="utf-8").split("\n" + RULE + "\n")
    sections = {}
    for part in parts[1:]:  # the first is the header saying what the bundle is
        head, *body = part.split("\n")
        assert head not in sections, f"{head} has two sections"
        sections[head] = body
    return sections


def test_the_bundle_is_the_one_the_manifest_describes() -> None:
    digest = hashlib.sha256(BUNDLE.read_bytes()).hexdigest()
    assert digest == manifest()["sha256"], "the bundle changed without build.sh"


def test_the_manifest_pins_the_sdk_and_matches_the_lock() -> None:
    data = manifest()
    assert (data["package"], data["version"]) == (SDK, VERSION)
    packages = lock_packages()
    sdk = packages[f"node_modules/{SDK}"]
    assert sdk["version"] == VERSION
    assert data["integrity"] == sdk["integrity"] and data["integrity"].startswith("sha512-")
    assert data["esbuild"] == packages["node_modules/esbuild"]["version"]
    pinned = json.loads((TOOLS / "package.json").read_text(encoding="utf-8"))
    assert pinned["dependencies"][SDK] == VERSION, "an exact version, not a range"
    assert pinned["devDependencies"]["esbuild"] == data["esbuild"]
    names = [p["name"] for p in data["bundled"]]
    assert names == sorted(names) and len(set(names)) == len(names)
    assert SDK in names
    for p in data["bundled"]:
        # the licences were read from these very packages, installed from this lock
        assert packages[f"node_modules/{p['name']}"]["version"] == p["version"], p["name"]
        assert p["license"], p["name"]


def test_the_manifest_is_written_the_stable_way() -> None:
    text = MANIFEST.read_text(encoding="utf-8")
    assert text == json.dumps(manifest(), indent=2, sort_keys=True) + "\n"


def test_every_bundled_package_has_its_licence() -> None:
    sections = licence_sections()
    bundled = {f"{p['name']}@{p['version']}": p for p in manifest()["bundled"]}
    assert set(sections) == set(bundled), "one section for each bundled package, no other"
    for head, lines in sections.items():
        assert lines[0] == f"License: {bundled[head]['license']}", head
        files = [i for i, line in enumerate(lines) if line.startswith("--- ")]
        if not files:
            # build.sh says so when a package ships no licence file (each one in 2.5.0 has one)
            assert any("has no licence file" in line for line in lines), head
            continue
        text = "\n".join(line for line in lines[files[0]:] if not line.startswith("--- "))
        # the licence text itself, not only its name: every licence here is a few lines
        assert len(text.strip()) > 100, f"{head} has no licence text"


def test_the_bundle_needs_nothing_else() -> None:
    code = BUNDLE.read_text(encoding="utf-8")
    left = IMPORT.findall(code)
    assert not left, f"the bundle still imports: {left[:5]}"
    assert len(EXPORT.findall(code)) == 1, "one export clause, at the end"
    clause = EXPORT_CLAUSE.search(code)
    assert clause, "the bundle does not end with its export clause"
    exported = {item.split(" as ")[-1].strip() for item in clause.group(1).split(",")}
    assert exported >= NEEDED, f"missing exports: {NEEDED - exported}"


def test_the_bundle_is_small_enough_for_a_page() -> None:
    size = BUNDLE.stat().st_size
    assert 10_000 < size < MAX_BYTES, size


@pytest.mark.parametrize("code", [
    'import{a as b}from"zod";export{b as c};',
    'var x=await import("uuid");export{x};',
    'import"eventemitter3";export{};',
    'import*as z from"zod";export{z};',
])
def test_the_import_check_sees_a_left_import(code: str) -> None:
    assert IMPORT.search(code)
