"""Catalogue upkeep with Babel: ``python -m lang.tool add|update|init|absorb|check``.

* ``add KEY "English text" [--note "for translators"]``: a new message in the template,
  then ``update``.
* ``update``: merge the template into every language (Babel's ``Catalog.update``): new keys
  appear untranslated, changed English texts make their translations fuzzy.
* ``set LANG KEY "text"``: write one translation (and clear its fuzzy flag).
* ``init LANG``: start a new language from the template (Babel's ``init``).
* ``absorb FILE``: take the keys of an old-style ``MESSAGES = {...}`` dictionary in a
  Python file (e.g. a branch written before the catalogues) that the template lacks.
* ``check``: list what the tests would reject (missing, fuzzy, placeholder mismatches).

See :mod:`lang.messages` for the catalogue format.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from lang import i18n

WIDTH = 76


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, locale=locale, domain=i18n.DOMAIN)


def _write(path: Path, catalog: Catalog) -> None:
    for m in catalog:
        if not m.fuzzy:  # a reviewed entry needs no record of its previous English
            m.previous_id = []
            m.user_comments = [c for c in m.user_comments if not c.startswith("| ")]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        write_po(fh, catalog, width=WIDTH, ignore_obsolete=True, include_previous=True)


def template_keys(catalog: Catalog) -> dict[str, str | tuple[str, ...] | list[str]]:
    return {m.context: m.id for m in catalog if m.id and m.context}


def add(key: str, text: str, note: str = "") -> None:
    pot = _read(i18n.TEMPLATE)
    if key in template_keys(pot):
        raise SystemExit(f"{key} is already in {i18n.TEMPLATE.name}")
    pot.add(text, "", context=key, auto_comments=[note] if note else [])
    _write(i18n.TEMPLATE, pot)
    update(fresh={key})


def update(fresh: set[str] | frozenset[str] = frozenset()) -> None:
    """Merge the template into every language. Changed English texts get Babel's fuzzy
    guess (the old translation, flagged); keys in ``fresh`` start empty instead."""
    pot = _read(i18n.TEMPLATE)
    for lang in i18n.languages()[1:]:
        path = i18n.po_path(lang)
        po = _read(path, lang)
        po.update(pot, no_fuzzy_matching=False, update_header_comment=False,
                  update_creation_date=False)
        for m in po:
            if m.context in fresh:
                m.string = ""
                m.flags.discard("fuzzy")
                m.previous_id = []
        _write(path, po)
    i18n.catalogue.cache_clear()


def set_translation(lang: str, key: str, text: str) -> None:
    path = i18n.po_path(lang)
    po = _read(path, lang)
    found = [m for m in po if m.context == key and m.id]
    if not found:
        raise SystemExit(f"{key} is not in {path}; run update first")
    for m in found:
        m.string = text
        m.flags.discard("fuzzy")
        m.previous_id = []
    _write(path, po)
    i18n.catalogue.cache_clear()


def init(lang: str) -> None:
    path = i18n.po_path(lang)
    if path.exists():
        raise SystemExit(f"{path} exists already")
    pot = _read(i18n.TEMPLATE)
    po = Catalog(locale=lang, domain=i18n.DOMAIN, project=pot.project, version=pot.version,
                 fuzzy=False)
    po.update(pot, no_fuzzy_matching=True)
    _write(path, po)
    i18n.languages.cache_clear()
    i18n.catalogue.cache_clear()


def absorb(py_file: Path) -> list[str]:
    """Add the keys of ``MESSAGES = {...}`` in ``py_file`` that the template lacks; returns
    them. Keys whose English differs are reported, not changed."""
    tree = ast.parse(py_file.read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        target: ast.expr
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and node.targets:
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == "MESSAGES" and value is not None:
            found = ast.literal_eval(value)
    pot = _read(i18n.TEMPLATE)
    have = template_keys(pot)
    added = []
    for key, text in found.items():
        if key not in have:
            pot.add(text, "", context=key)
            added.append(key)
        elif have[key] != text:
            print(f"differs, kept the catalogue's: {key}", file=sys.stderr)
    if added:
        _write(i18n.TEMPLATE, pot)
        update()
    return added


def problems(lang: str) -> list[str]:
    """What is wrong with ``lang``'s catalogue against the English template."""
    cat = i18n.catalogue()
    source = cat[i18n.SOURCE]
    target = cat[lang]
    out = []
    for key, en in source.messages.items():
        tr = target.messages.get(key)
        if tr is None:
            out.append(f"{lang}: {key} is not translated")
            continue
        if key in target.fuzzy:
            out.append(f"{lang}: {key} is fuzzy (check it, then remove the fuzzy flag)")
        if i18n.fields(en) != i18n.fields(tr):
            out.append(f"{lang}: {key} placeholders {sorted(i18n.fields(tr))} differ from "
                       f"English {sorted(i18n.fields(en))}")
        for name, forms in i18n.plural_specs(tr):
            if len(forms) != target.num_plurals:
                out.append(f"{lang}: {key} {{{name}:...}} has {len(forms)} forms, the language "
                           f"has {target.num_plurals}")
    for key in target.messages:
        if key not in source.messages:
            out.append(f"{lang}: {key} is not in the template (obsolete?)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lang.tool", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_add = sub.add_parser("add", help="add a message to the template")
    p_add.add_argument("key")
    p_add.add_argument("text")
    p_add.add_argument("--note", default="")
    sub.add_parser("update", help="merge the template into every language")
    p_set = sub.add_parser("set", help="write one translation")
    p_set.add_argument("lang")
    p_set.add_argument("key")
    p_set.add_argument("text")
    p_init = sub.add_parser("init", help="start a new language")
    p_init.add_argument("lang")
    p_abs = sub.add_parser("absorb", help="take missing keys from a MESSAGES dict")
    p_abs.add_argument("file", type=Path)
    sub.add_parser("check", help="list problems")
    args = parser.parse_args(argv)
    if args.cmd == "add":
        add(args.key, args.text, args.note)
    elif args.cmd == "update":
        update()
    elif args.cmd == "set":
        set_translation(args.lang, args.key, args.text)
    elif args.cmd == "init":
        init(args.lang)
    elif args.cmd == "absorb":
        for key in absorb(args.file):
            print(f"added {key}")
    elif args.cmd == "check":
        found = [p for lang in i18n.languages()[1:] for p in problems(lang)]
        print("\n".join(found) or "ok")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
