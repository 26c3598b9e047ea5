"""Locales: which language a sentence is written in, and the gettext catalogues behind it.

The words live in gettext catalogues under ``lang/locale/`` (see :mod:`lang.messages` for
how to add one). They are read once per process with Babel's ``read_po``: nothing is
compiled, so no build artefact can go stale.

* ``tempus.pot`` is the English source: ``msgctxt`` is the message key used in code
  (``t("error.no_game")``), ``msgid`` the English text.
* ``<lang>/LC_MESSAGES/tempus.po`` holds one language's ``msgstr`` for every key.

**The current locale** is a :class:`contextvars.ContextVar`, so each asyncio task (one
interaction, one announcement) writes in its own language without passing a parameter
through every function: :func:`lang.messages.t` reads it. The Discord layer sets it to
the user's client language for private replies (:func:`set_locale` with
``interaction.locale``); the table service wraps channel and thread posts in
``with using(game_locale):`` (the server's preferred locale, stored in the game's
options when the game is created). New tasks copy the context they are created in, so
a background task must set its own locale rather than inherit a user's by accident.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import gettext
import logging
import string
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

log = logging.getLogger(__name__)

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "tempus"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
#: the language of the template's msgids, and the fallback for everything
SOURCE = "en"
DEFAULT = SOURCE

_current: contextvars.ContextVar[str] = contextvars.ContextVar("tempus_locale", default=DEFAULT)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def languages() -> tuple[str, ...]:
    """Every language with a catalogue, the source language first."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (SOURCE, *[x for x in found if x != SOURCE])


#: :func:`normalize`'s answers by the text it was given: it runs for every ``using`` (a
#: few times for each action of a game), always on the same few locales
_normalized: dict[str, str] = {}
#: at most this many texts are remembered (the locales Discord knows are about 30; a
#: text from elsewhere, e.g. an option typed by a person, must not grow the memory)
NORMALIZED_KEPT = 256
#: the languages ``_normalized`` was worked out for
_normalized_for: tuple[str, ...] = ()


def normalize(locale: object) -> str:
    """A catalogue language for a Discord locale (``pl``, ``en-US``, a
    :class:`discord.Locale`), a POSIX one (``pl_PL.UTF-8``) or None: the best match, else
    English."""
    global _normalized_for
    text = locale if type(locale) is str else str(getattr(locale, "value", locale) or "")
    langs = languages()
    if langs is not _normalized_for:  # the catalogues were read again (tests, lang.tool)
        _normalized.clear()
        _normalized_for = langs
    found = _normalized.get(text)
    if found is None:
        found = _normalize_text(text, langs)
        if len(_normalized) < NORMALIZED_KEPT:
            _normalized[text] = found
    return found


def _normalize_text(text: str, langs: tuple[str, ...]) -> str:
    text = text.strip()
    if not text:
        return DEFAULT
    base = text.replace("_", "-").split(".")[0].split("-")[0].lower()
    return base if base in langs else DEFAULT


def current() -> str:
    return _current.get()


def set_locale(locale: object) -> str:
    """Set the current task's language (for the rest of this task); returns it."""
    lang = normalize(locale)
    _current.set(lang)
    return lang


@contextlib.contextmanager
def using(locale: object) -> Iterator[str]:
    """``with using(game_locale): ...`` writes in that language inside the block only."""
    token = _current.set(normalize(locale))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


# ------------------------------------------------------------------ catalogues
@dataclass(frozen=True)
class Language:
    """One language's messages and its plural rule (from the catalogue's header)."""

    code: str
    messages: dict[str, str]
    fuzzy: frozenset[str]
    num_plurals: int
    plural: Callable[[int], int]

    def plural_index(self, n: int) -> int:
        return min(max(self.plural(int(n)), 0), self.num_plurals - 1)


def _read(path: Path, lang: str | None) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


def _language(code: str, catalog: Catalog, *, source: bool) -> Language:
    messages: dict[str, str] = {}
    fuzzy: set[str] = set()
    for m in catalog:
        if not m.id or m.context is None:
            continue  # the header, or an entry without a key
        text = m.id if source else m.string
        if not isinstance(text, str) or not text:
            continue  # untranslated: falls back to English
        messages[m.context] = text
        if m.fuzzy and not source:
            fuzzy.add(m.context)
    header = catalog.plural_forms if not source else "nplurals=2; plural=(n != 1);"
    num, expr = _plural_header(header)
    # gettext's own plural-expression compiler: undocumented, so typeshed omits it
    plural = gettext.c2py(expr)  # type: ignore[attr-defined]
    return Language(code, messages, frozenset(fuzzy), num, plural)


def _plural_header(header: str) -> tuple[int, str]:
    parts = dict(p.strip().split("=", 1) for p in header.split(";") if "=" in p)
    return int(parts["nplurals"]), parts["plural"].strip()


@cache
def catalogue() -> dict[str, Language]:
    """Every language, loaded once per process (a few milliseconds)."""
    out = {SOURCE: _language(SOURCE, _read(TEMPLATE, None), source=True)}
    for code in languages()[1:]:
        out[code] = _language(code, _read(po_path(code), code), source=False)
    return out


def language(code: str | None = None) -> Language:
    langs = catalogue()
    return langs.get(code or current(), langs[SOURCE])


def lookup(key: str, lang: str | None = None) -> str:
    """The template for ``key`` in ``lang`` (default: the current locale), falling back
    to English; a fuzzy (unreviewed) translation is not used. Raises KeyError for an
    unknown key."""
    return _template(language(lang), key)


def _template(lg: Language, key: str) -> str:
    """:func:`lookup` in the language ``lg``."""
    text = lg.messages.get(key)
    if text is not None and key not in lg.fuzzy:
        return text
    return catalogue()[SOURCE].messages[key]


def has(key: str) -> bool:
    return key in catalogue()[SOURCE].messages


def message_keys() -> list[str]:
    return list(catalogue()[SOURCE].messages)


# ------------------------------------------------------------------ formatting
class _Formatter(string.Formatter):
    """``{n:card|cards}`` picks a plural form of the catalogue's language by the number
    ``n`` (English: one|other; Polish: one|few|many, as in ``{n:karta|karty|kart}``);
    other format specs are Python's."""

    def __init__(self, lang: Language) -> None:
        super().__init__()
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            forms = format_spec.split("|")
            return forms[min(self.lang.plural_index(int(value)), len(forms) - 1)]
        return super().format_field(value, format_spec)


def render(key: str, lang: str | None = None, /, **kwargs: object) -> str:
    """The message ``key`` in ``lang`` (default: current) with ``kwargs`` filled in."""
    lg = language(lang)
    template = _template(lg, key)
    if not kwargs:
        return template
    if "|" not in template:  # no plural form: Python's own formatting, the same in C
        return template.format(**kwargs)
    return _Formatter(lg).format(template, **kwargs)


def fields(template: str) -> set[str]:
    """The placeholder names of a template (``{n:card|cards}`` counts as ``n``)."""
    out = set()
    for _lit, name, _spec, _conv in string.Formatter().parse(template):
        if name is not None:
            out.add(name)
    return out


def plural_specs(template: str) -> list[tuple[str, list[str]]]:
    """Every ``{name:form|form...}`` of a template as (name, forms)."""
    out = []
    for _lit, name, spec, _conv in string.Formatter().parse(template):
        if name is not None and spec and "|" in spec:
            out.append((name, spec.split("|")))
    return out


# ------------------------------------------------------------------ people's languages
# Kept in memory for the DMs written outside any interaction, and stored (table
# user_settings, column locale) through a hook the application installs
# (:func:`store_locales_in`), so that after a restart, or in another process of a split
# deployment, a person's DMs still come in their language:
# :func:`load_user_locales` reads the stored ones back before DMs to those people.
_USER_LOCALES: dict[int, str] = {}
_MAX_USERS = 10_000


class LocaleStore(Protocol):
    async def user_locales(self, user_ids: Sequence[int]) -> dict[int, str]: ...
    async def set_user_locale(self, user_id: int, locale: str) -> None: ...


#: called when a person's language is first seen or has changed (see store_locales_in)
_saver: Callable[[int, str], None] | None = None
_saving: set[asyncio.Task[None]] = set()


def _keep(user_id: int, lang: str) -> None:
    if len(_USER_LOCALES) >= _MAX_USERS and user_id not in _USER_LOCALES:
        _USER_LOCALES.pop(next(iter(_USER_LOCALES)))
    _USER_LOCALES[user_id] = lang


def remember_user(user_id: int, locale: object) -> str:
    """Note the language of a person's Discord client (seen on each interaction), so that
    DMs sent to them later, outside any interaction, are written in it; a new or changed
    one is also stored (if the application installed a store)."""
    lang = normalize(locale)
    changed = _USER_LOCALES.get(user_id) != lang
    _keep(user_id, lang)
    if changed and _saver is not None:
        _saver(user_id, lang)
    return lang


def user_locale(user_id: int | None, default: object = None) -> str:
    """The language last seen for ``user_id``, else ``default`` (e.g. the game's)."""
    if user_id is not None and user_id in _USER_LOCALES:
        return _USER_LOCALES[user_id]
    return normalize(default)


def store_locales_in(store: LocaleStore | None) -> None:
    """Store every new or changed language from now on, in the background (a lost write
    costs only a DM in the server's language until the person's next interaction);
    None: store nothing (the console, tests)."""
    global _saver
    if store is None:
        _saver = None
        return

    async def save(user_id: int, lang: str) -> None:
        try:
            await store.set_user_locale(user_id, lang)
        except Exception as exc:
            log.warning("could not store the language of %s: %s", user_id, exc)

    def saver(user_id: int, lang: str) -> None:
        try:
            task = asyncio.get_running_loop().create_task(save(user_id, lang))
        except RuntimeError:  # no event loop: kept in memory only
            return
        _saving.add(task)
        task.add_done_callback(_saving.discard)

    _saver = saver


async def saved() -> None:
    """Until the languages being stored are stored (tests, shutdown)."""
    while _saving:
        await asyncio.gather(*list(_saving), return_exceptions=True)


async def load_user_locales(store: LocaleStore, user_ids: Iterable[int | None], *,
                            refresh: bool = False) -> None:
    """Read the stored languages of ``user_ids`` (those not known here, or all of them
    with ``refresh``: another process may have seen a newer one). A failed read keeps
    what is known."""
    ids = [u for u in dict.fromkeys(user_ids)
           if u is not None and (refresh or u not in _USER_LOCALES)]
    if not ids:
        return
    try:
        found = await store.user_locales(ids)
    except Exception as exc:
        log.warning("could not read people's languages: %s", exc)
        return
    for user_id, lang in found.items():
        _keep(user_id, normalize(lang))
