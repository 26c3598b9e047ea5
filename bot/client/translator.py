"""Discord's own localisations for the slash commands (``/tempus``, ``/tempus-records``),
from the message catalogue.

Every command, group, option and choice name and description is a :func:`ls` string: its
English text (the default Discord shows) plus the catalogue key. When the command tree is
synced, :class:`CatalogueTranslator` answers each Discord locale that has a catalogue
(Polish: ``pl``) with that language's text, so users see the commands in their client's
language. English clients (``en-US``, ``en-GB``) get the default.
"""

from __future__ import annotations

from discord import Locale, app_commands

from lang import i18n


def ls(key: str) -> app_commands.locale_str:
    """A command string: English text, translated by key at sync time."""
    return app_commands.locale_str(i18n.lookup(key, i18n.SOURCE), key=key)


def discord_language(locale: Locale) -> str | None:
    """The catalogue language for a Discord locale, or None (English, or no catalogue)."""
    lang = i18n.normalize(locale.value)
    if lang == i18n.SOURCE or not locale.value.lower().startswith(lang):
        return None
    return lang


class CatalogueTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        lang = discord_language(locale)
        if key is None or lang is None:
            return None
        lg = i18n.language(lang)
        if key not in lg.messages or key in lg.fuzzy:
            return None
        return lg.messages[key]
