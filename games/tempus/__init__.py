"""Tempus (Martin Wallace, 2006) behind the port: its rules from ``engine``, its pictures
from ``render``, and here how it is shown to people (panels, names, event and refusal
texts, help, hints, recaps, result posts, its live page)."""

from games.port import Game
from games.tempus.computers import TempusComputers
from games.tempus.lesson import TempusLessons
from games.tempus.media import TempusMedia
from games.tempus.presentation import TempusPresentation
from games.tempus.records import TempusRecords
from games.tempus.rules import TempusRules
from games.tempus.web import TempusWeb

GAME = Game("tempus", TempusRules(), TempusPresentation(), TempusComputers(),
            TempusRecords(), TempusMedia(), TempusLessons(), TempusWeb())
