"""damas rig: the software of an electronic draughts board.

The rules core (variants, positions, moves, rule sets, PDN) lives in this
package and does no I/O; sources live in ``sensors``/``vision``, sinks and
the command line in ``rig.commands``.
"""

__version__ = "0.1.0"
