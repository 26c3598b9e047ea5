"""Typed errors for illegal actions; their messages are meant for players."""


class IllegalAction(ValueError):
    """The action breaks a rule. The message says what is wrong and what would be right."""


class NotYourDecision(IllegalAction):
    """The seat does not owe a decision now, or not this kind of decision."""
