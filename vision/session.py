"""The camera as a board source: pictures in, session frames out (``rig record --camera``, ``rig run
--camera``). One :class:`CameraBoard` reads each picture (:mod:`vision.classify`) and decides what to
emit (:mod:`vision.stability`); a picture with a hand over the board gives a ``hand`` frame, the last
position repeated, so that the reconstruction does not take the board as still under the hand."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rig.session import Frame
from vision.classify import Reading
from vision.config import CameraConfig
from vision.stability import BoardWatcher

__all__ = ["CameraBoard", "CameraStats"]


@dataclass
class CameraStats:
    frames: int = 0
    occluded: int = 0
    emitted: int = 0
    ms: list[float] = field(default_factory=list)

    def summary(self) -> str:
        ms = np.array(self.ms) if self.ms else np.zeros(1)
        return (f"{self.frames} pictures, {self.occluded} with a hand over the board, {self.emitted} positions; "
                f"{ms.mean():.1f} ms a picture (p95 {np.percentile(ms, 95):.1f})")


class CameraBoard:
    """A calibrated camera's pictures -> :class:`~rig.session.Frame` (``occupied`` and ``pieces``)."""

    def __init__(self, config: CameraConfig, fen: str | None = None):
        self.config = config
        self.classifier = config.classifier()
        self.watcher = BoardWatcher(config.variant, fen, config.agree, config.hold)
        self.stats = CameraStats()
        self.last: Reading | None = None

    def feed(self, t: float, image: np.ndarray) -> list[Frame]:
        h, w = image.shape[:2]
        if (w, h) != tuple(self.config.image_size):
            from vision.errors import CameraError

            raise CameraError(f"a {w}x{h} picture; the camera was calibrated at "
                              f"{self.config.image_size[0]}x{self.config.image_size[1]}")
        reading = self.classifier.read(image, t)
        self.last = reading
        self.stats.frames += 1
        self.stats.occluded += reading.occluded
        self.stats.ms.append(reading.ms)
        frames = self.watcher.feed(reading)
        self.stats.emitted += len(frames)
        if reading.occluded and self.watcher.emitted is not None:
            # the board is hidden: the last position again, marked, so the engine does not take the board as
            # still while a hand is over it (a version-1 reader sees a repeat; docs/session-format.md)
            last = self.watcher.emitted
            frames.append(Frame(t, frozenset(last), dict(last), hand=True))
        return frames

    def finish(self, t: float) -> list[Frame]:
        """At the end of the pictures: the last position again at ``t`` (how long the board stood still;
        a repeat, which the session format allows), so a move made last is committed like any other."""
        last = self.watcher.emitted
        self.last_t = t
        if last is None:
            return []
        return [Frame(t, frozenset(last), dict(last))]

    @property
    def pending_since(self) -> float | None:
        return self.watcher.pending_since

    def __repr__(self) -> str:
        return f"<CameraBoard {self.config.variant.name} {self.stats.frames} pictures, {self.stats.emitted} positions>"
