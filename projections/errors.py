"""kifu's error hierarchy. The CLI turns each into one line and an exit code."""

from __future__ import annotations

import sys
from collections.abc import Callable


def _say_in_english(text: str) -> None:
    print(f"kifu: {text}", file=sys.stderr)


# What an inner module tells the person at the terminal on its own, not as an error (the read
# model projected anew, or taken over from an earlier kifu): one line, built in English. The face
# that runs sets it to say the line in the reader's language (recorder/cli/__init__.py).
say: Callable[[str], None] = _say_in_english


class KifuError(Exception):
    """Base of every error kifu reports to a user as one line."""

    exit_code = 2


class LogFormatError(KifuError):
    """A match log (or a move given on the command line) is malformed.

    ``problems`` holds ``FILE:LINE: field: problem`` lines, one per problem found.
    """

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__(problems[0] if problems else "malformed match log")


class IllegalMoveError(KifuError):
    """A move breaks a rule and the caller asked for ``--strict``."""

    exit_code = 1


class ConflictError(KifuError):
    """Another writer appended to the same match first; get the match again and retry."""

    exit_code = 3


class UnknownGameError(KifuError):
    """No ruleset of that name (or version) is registered."""


class NotFoundError(KifuError):
    """No match (or step, dispute, ruling) of that id."""


class DuplicateMatchError(KifuError):
    """A match with that id is already recorded."""


class WorkflowError(KifuError):
    """A dispute / ruling / appeal transition the workflow does not allow."""
