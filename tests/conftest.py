"""Shared test configuration."""

import os
import sys

from hypothesis import settings

# CI machines are small (2 cores): keep property tests bounded but meaningful.
settings.register_profile("ci", max_examples=150, deadline=None)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
