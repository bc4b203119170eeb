"""The rig's command line as the tests run it: ``python -m rig.cli`` in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

RIG = [sys.executable, "-m", "rig.cli"]


def transcribe_report(session: Path, out_dir: Path) -> dict:
    """``rig transcribe SESSION --report OUT_DIR/r.json`` (it must exit 0), and the report it wrote."""
    report = out_dir / "r.json"
    done = subprocess.run(RIG + ["transcribe", str(session), "--report", str(report)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(report.read_text())
