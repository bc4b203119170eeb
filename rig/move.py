"""The ``Move`` value type.

A move carries its origin, destination, the full landing path, the captured
squares (in the order they were jumped) and whether it promotes, all in the
variant's own square numbers. Two captures with the same origin, destination
and captured set are one move for notation and for perft (docs/rules.md
"Reference perft counts"); ``Move.key`` is that identity, while ``path`` keeps
the way the piece actually went.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Move"]


@dataclass(slots=True, unsafe_hash=True)
class Move:
    """A move of one piece. Treat as immutable (like ``chess.Move``).

    >>> m = Move(28, 19, (28, 19), captured=(23,))
    >>> m.is_capture, str(m), m.key
    (True, '28x19', (28, 19, frozenset({23})))
    """

    origin: int
    destination: int
    path: tuple[int, ...]
    captured: tuple[int, ...] = ()
    promotes: bool = False

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    @property
    def key(self) -> tuple[int, int, frozenset[int]]:
        """Identity for notation: origin, destination and the captured set."""
        return (self.origin, self.destination, frozenset(self.captured))

    def same_as(self, other: "Move") -> bool:
        """True if both are the same move for notation (the path may differ)."""
        return self.key == other.key

    def text(self, full_path: bool = False, name=str) -> str:
        """``a-b`` / ``axb``; ``axcxb`` with ``full_path``. ``name`` renders a square."""
        if not self.captured:
            return f"{name(self.origin)}-{name(self.destination)}"
        if full_path:
            return "x".join(name(s) for s in self.path)
        return f"{name(self.origin)}x{name(self.destination)}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        extra = f", captured={list(self.captured)}" if self.captured else ""
        if len(self.path) > 2:
            extra += f", path={list(self.path)}"
        if self.promotes:
            extra += ", promotes"
        return f"<Move {self.text()}{extra}>"
