"""damas rig: the software of an electronic draughts board.

The public API, in the manner of python-chess::

    >>> from rig import Board, Move, Piece, Variant, Reconstructor, GameTracker
    >>> board = Board("international")
    >>> move = board.parse_move("32-28")
    >>> move
    <Move 32-28>
    >>> board.push(move)
    >>> board.piece_at(28)
    Piece(white=True, king=False)
    >>> board.variant.numbering
    'N2'

``rig.pdn.read_games`` reads PDN text. The names are imported lazily, on
first use, so ``import rig`` stays cheap. ``rig`` is the rules core (variants,
positions, moves, rule sets, the law on irregularities, PDN, the session
format, reconstruction, the session simulator): it imports no device, thread,
clock or network code, and its only I/O is the file or stream a caller hands it
(a PDN file, a session journal). Devices live in
``sensors`` (matrix, clock drivers) and ``vision`` (camera); the application
(``rig.live``, ``rig.web``, ``rig.hub``, ``rig.commands``, ``rig.cli``) sits on
top. The layers: docs/architecture.md. The rules it follows: docs/rules.md.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: public name -> the module that defines it
_LAZY = {
    "Board": "rig.board",
    "Piece": "rig.board",
    "Move": "rig.move",
    "Variant": "rig.variants",
    "get_variant": "rig.variants",
    "RuleSet": "rig.rulesets",
    "GameTracker": "rig.rulesets",
    "get_ruleset": "rig.rulesets",
    "Reconstructor": "rig.reconstruct",
    "RigError": "rig.errors",
}

__all__ = ["__version__", "Board", "Piece", "Move", "Variant", "get_variant", "RuleSet", "GameTracker", "get_ruleset",
           "Reconstructor", "RigError"]

if TYPE_CHECKING:
    from rig.board import Board, Piece
    from rig.errors import RigError
    from rig.move import Move
    from rig.reconstruct import Reconstructor
    from rig.rulesets import GameTracker, RuleSet, get_ruleset
    from rig.variants import Variant, get_variant


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rig' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
