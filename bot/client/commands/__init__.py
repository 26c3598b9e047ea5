"""The slash commands: one module per part of the command tree, each top-level command a
cog loaded as an extension (:data:`EXTENSIONS`, in ``TempusBot.setup_hook``).

::

    /tempus                 the game in this channel (bot.client.commands.tempus)
      new join leave start remind tips        lobby.py
      play move grow attack city place        tempus_moves.py
      hand help hint board status             look.py
      table addbot|removebot|replace|autopilot|pace|cancel     table.py (a group)
      learn                                   learn.py
    /tempus-records         beyond the game in progress (records.py)
      history show stats

Discord allows 25 subcommands or groups in a command and 25 subcommands in a group, one
level of groups (developers/interactions/application-commands): ``/tempus`` holds 19 of
25, ``table`` 6 and ``/tempus-records`` 3.

Adding a command: write it as a method of the mixin of its part (or of ``RecordsCog``)
with ``@app_commands.command(name=ls("cmd.<name>.name"), description=ls("cmd.<name>"))``
(``@table.command`` in the group); add those keys (and each option's ``.name`` and
description) with ``python -m lang.tool add`` and translate them (``python -m lang.tool
set pl ...``). A new part of ``/tempus`` is a new mixin in ``tempus.py``'s bases; a new
top-level command is a new module with a ``setup`` listed in :data:`EXTENSIONS`. Names and
descriptions are catalogue keys (:func:`bot.client.translator.ls`): Discord shows them in
each user's client language; replies are written in the user's language (the command tree
sets the locale for every interaction, see :mod:`bot.client.app`).
"""

from __future__ import annotations

from bot.client.commands.tempus_moves import PLAY_WORDS

#: the modules whose ``setup`` adds a top-level command's cog, in registration order
EXTENSIONS = ("bot.client.commands.tempus", "bot.client.commands.records")

__all__ = ["EXTENSIONS", "PLAY_WORDS"]
