"""Fitting text into one Discord message (2,000 characters)."""

from __future__ import annotations

from lang.messages import t

MAX_CONTENT = 2000


def fit(lines: list[str], tail: str = "", limit: int = MAX_CONTENT) -> str:
    """Join lines, dropping the oldest ones if the message would be too long."""
    body, dropped = list(lines), 0
    while True:
        shown = [t("post.more", n=dropped), *body] if dropped else body
        text = "\n".join([*shown, tail] if tail else shown)
        if len(text) <= limit or not body:
            return text[:limit]
        drop = max(1, len(body) // 4)
        dropped, body = dropped + drop, body[drop:]
