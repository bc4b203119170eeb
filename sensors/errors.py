"""Errors of the sensor layer; each also subclasses the matching built-in (see rig.errors)."""

from rig.errors import RigError

__all__ = ["MatrixConfigError", "CalibrationError"]


class MatrixConfigError(RigError, ValueError):
    """A bad matrix configuration: pin map, cell map or config file."""


class CalibrationError(RigError, RuntimeError):
    """The calibration wizard could not learn a usable map (missing wires, inconsistent readings)."""
