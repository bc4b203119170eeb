"""Errors of the PDN reader: each names the line, the column and what is wrong."""

from __future__ import annotations

from dataclasses import dataclass

from rig.errors import RigError

__all__ = ["PdnError", "PdnSyntaxError"]


class PdnSyntaxError(RigError, ValueError):
    """Malformed PDN or a PDN value (result, FEN, GameType) the rig cannot read."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 game: int | None = None):
        self.message = message
        self.line = line
        self.column = column
        self.game = game
        where = []
        if game is not None:
            where.append(f"game {game + 1}")
        if line is not None:
            where.append(f"line {line}" + (f", column {column}" if column is not None else ""))
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


@dataclass(frozen=True)
class PdnError:
    """One error found while reading: 1-based ``line`` and ``column``, 0-based ``game`` index in the file."""

    line: int
    column: int
    game: int
    message: str

    def __str__(self) -> str:
        return f"game {self.game + 1}, line {self.line}, column {self.column}: {self.message}"

    def exception(self) -> PdnSyntaxError:
        return PdnSyntaxError(self.message, self.line, self.column, self.game)
