"""When a computer player's answer is made (a pure function).

A computer's answer comes a fixed pause after its decision was owed, however long it
thought (up to that pause): the pause is counted from the moment it was asked, and the
thinking happens inside it. Thinking first and then pausing in full would make the answer
come later the longer the search took, and how long a search takes depends on the cards
in its hand (how many card choices are worth comparing), so the timing of play would tell
the table something of a hand (R-INFO-4). A search longer than the pause still shows;
the pause (``TEMPUS_AI_DELAY``, 0.8 s by default) is longer than nearly every search
(``hard``: p95 0.23 s of CPU a decision).
"""

from __future__ import annotations


def wait_after_thinking(pause: float, thought: float) -> float:
    """Seconds still to wait after ``thought`` seconds of thinking, so that the answer
    comes ``pause`` seconds after the decision was owed (at once if it took longer)."""
    return max(0.0, pause - max(0.0, thought))
