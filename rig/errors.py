"""Exceptions of the rig. Each also subclasses the matching built-in, so callers
may catch ``ValueError`` without knowing the rig (python-chess style)."""


class RigError(Exception):
    """Base of every error the rig raises on purpose."""


class IllegalMoveError(RigError, ValueError):
    """A move that is not legal in the position it was applied to."""


class AmbiguousMoveError(RigError, ValueError):
    """A move notation that names more than one legal move."""


class InvalidFenError(RigError, ValueError):
    """A FEN string that cannot be read; the message says where and what."""


class InvalidSquareError(RigError, ValueError):
    """A square name or number that the variant does not have."""


class SessionFormatError(RigError, ValueError):
    """A malformed line of a board session file (docs/session-format.md)."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class UnknownVariantError(RigError, ValueError):
    """A variant name the rig does not play (``get_variant``); the message lists those it does."""


class UnknownRuleSetError(RigError, ValueError, KeyError):
    """A rule-set id that the rig does not know (``get_ruleset``); also a ``KeyError`` for older callers."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0]) if self.args else ""
