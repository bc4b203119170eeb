"""``rig run``: the live loop on a real (or simulated) board. See docs/run.md.

- :mod:`rig.live.journal`: the session file written and fsynced line by line, read back for ``--resume``
  (torn final line dropped), atomic rewrites of the PDN and the report;
- :mod:`rig.live.sources`: the session clock, the matrix scanner thread, the clock driver, the inbox;
- :mod:`rig.live.loop`: the consumer: time order, journal, engine, sinks, the end of the run;
- :mod:`rig.live.simulated`: the simulated board (matrix on mock pins, clock emulator on a pty, the hands);
- :mod:`rig.live.screen`: the live view with switch health warnings.
"""

from rig.live.journal import Journal, JournalError, Recovered, RunPaths, atomic_write, recover
from rig.live.loop import LiveLoop, RunOutcome
from rig.live.sources import ClockSource, Inbox, MatrixSource, SessionClock, SimMatrixSource

__all__ = ["Journal", "JournalError", "Recovered", "RunPaths", "atomic_write", "recover", "LiveLoop", "RunOutcome",
           "ClockSource", "Inbox", "MatrixSource", "SessionClock", "SimMatrixSource"]
