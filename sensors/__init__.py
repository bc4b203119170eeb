"""Sensors: the reed-switch matrix (and, later, other board sources), producing session frames.

- ``pinmap``: every GPIO and its role (the one source of truth for scanner, clock, schematics, docs)
- ``cellmap``: which matrix cell is which square; ``config``: the TOML file that stores both
- ``circuit``: the diode-matrix electrical model (sneak paths, the diode check)
- ``lines``: the matrix lines: lgpio group calls on a Pi, or gpiozero pins
- ``matrix``: :class:`MatrixScanner`, lines in (with a settle time), debounced frames out
- ``health``: :class:`HealthEvent` and the monitor that masks stuck switches and ghosts
- ``simmatrix``: a simulated matrix and gpiozero mock pins wired to it; ``simlgpio``: a simulated
  lgpio module on it; ``rcmodel``: the lines' RC delays
- ``simulation``: :func:`matrix_session`, hands' timeline -> simulated matrix -> scanner -> frames
- ``prompts``: the place-a-piece loop shared by the calibration wizard and ``rig doctor``
- ``doctor``: recording analysis and the live check

Nothing here imports Pi-only modules: the pin factory is chosen by gpiozero at run time.
"""
