"""The session simulator: real or random games played by seeded simulated hands on a physical board.

>>> from rig.simulate import simulate_game
>>> s = simulate_game("portuguese", ["10-14", "22-19"], seed=1)
>>> s.expected_moves
['10-14', '22-19']

- :mod:`rig.simulate.model`: :class:`HumanModel`, the seeded behaviour parameters;
- :mod:`rig.simulate.hands`: the physical board, the hands, switch bounce, the clock model;
- :mod:`rig.simulate.game`: :func:`simulate_game`, :func:`random_game`, :class:`SimulatedSession`;
- :mod:`rig.simulate.injections`: the irregularities the hands can commit (``--inject TYPE@PLY``);
- :mod:`rig.simulate.behaviours`: real-board behaviours that are no irregularity (``HumanModel.hard()``);
- :mod:`rig.simulate.sessiontypes`: the value types (:class:`SimulatedSession`, :class:`Injection`, ...).

See docs/simulator.md.
"""

from rig.simulate.game import (ExpectedMove, Injection, InjectionError, SimulatedSession, Turn, move_number,
                               random_game, side_name, simulate_game)
from rig.simulate.behaviours import Quirk
from rig.simulate.hands import Hands, PhysicalError, SimClock
from rig.simulate.injections import ALWAYS_CORRECTED, CORRECTABLE, HANDLERS, NEEDS_CLOCK, applicable
from rig.simulate.model import BEHAVIOURS, HumanModel, ModelError

#: the irregularity types the simulator can commit (SESSION-FORMAT.md ids)
INJECTION_TYPES: tuple[str, ...] = tuple(sorted(HANDLERS))

__all__ = [
    "HumanModel",
    "ModelError",
    "BEHAVIOURS",
    "Quirk",
    "SimulatedSession",
    "ExpectedMove",
    "Turn",
    "Injection",
    "InjectionError",
    "INJECTION_TYPES",
    "CORRECTABLE",
    "ALWAYS_CORRECTED",
    "NEEDS_CLOCK",
    "applicable",
    "simulate_game",
    "random_game",
    "move_number",
    "side_name",
    "Hands",
    "SimClock",
    "PhysicalError",
]
