"""Move reconstruction and irregularity detection: board session events in, the game out.

docs/reconstruction.md explains the decisions; docs/engine-contract.md is the
contract with the session simulator.

>>> from rig.rulesets import FPD_2026
>>> from rig.session import Header
>>> from rig.variants import PORTUGUESE
>>> engine = Reconstructor(Header(PORTUGUESE, FPD_2026))
>>> engine.board.turn
True
"""

from rig.reconstruct.engine import Reconstructor
from rig.reconstruct.occupancy import Debouncer, SquareChange
from rig.reconstruct.outputs import (ACCEPTED, CORRECTED, DISMISSED, OPEN, RULES, ClockUpdate, CounterUpdate, GameEnd,
                                     Irregularity, IrregularityUpdate, MoveEntry, MoveWithdrawn, Note, Observation,
                                     Output, PositionLost, PositionRestored, SensorFault)
from rig.reconstruct.settings import Settings

__all__ = [
    "Reconstructor", "Settings", "Debouncer", "SquareChange", "MoveEntry", "MoveWithdrawn", "Irregularity",
    "IrregularityUpdate", "Observation", "SensorFault", "CounterUpdate", "PositionLost", "PositionRestored",
    "ClockUpdate", "GameEnd", "Note", "Output", "RULES", "OPEN", "ACCEPTED", "CORRECTED", "DISMISSED",
]
