"""Named thresholds of the reconstruction engine (docs/reconstruction.md explains each default).

Reed switches bounce for 1-10 ms when a magnet arrives or leaves; a camera
flickers for a frame or two. A deliberate touch of a piece takes a hand at
least a few tenths of a second (lift, look, put back); a king sliding across
a square closes its switch for well under that. Without a clock, players
leave a finished move alone for seconds while the opponent thinks.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Settings"]


@dataclass(frozen=True)
class Settings:
    """Thresholds of the reconstruction engine, in seconds.

    ``bounce_s``: a square change that reverts sooner than this is switch bounce and ignored
    (reed bounce lasts < 10 ms; camera flicker one frame at 30 fps = 33 ms; 50 ms covers both
    and is still far below the quickest human lift, about 150 ms).
    ``touch_s``: a lift (or a touch-down) shorter than this is not deliberate: a brushed piece
    or a king sliding across a square. Longer is a touch (touch-move, FPD 4.3) or a landing.
    ``stable_s``: without a clock, a board that explains a legal move and stays unchanged this
    long commits the move (the opponent's thinking time is never that short in practice).
    ``use_clock``: True = commit only at clock presses (or when the opponent starts his move);
    False = ignore presses for committing; None = auto: clock mode once the header announces a
    clock (``"clock": true`` or a ``TimeControl`` tag) or the first clock event arrives.
    ``lost_squares``: this many squares changed with no explanation puts the board in
    position-lost (a knocked board, pieces swept off), FPD 7.4, CODEX art. 46-48.
    ``release_s``: a piece set down on a square off its move's path and left there at least this long
    before being moved on was released (``piece-moved-after-release``, FPD 4.6); shorter, a reed switch
    cannot tell a release from a hand that kept hold of the piece (FMJD 002 art. 3.12: a piece is played
    when released): an observation. A hand that changes its mind rests a held piece 0.1-0.3 s; a piece let
    go and taken up again stays down half a second or more.
    ``magnet_s``: a reed switch under a slow magnet closes up to 0.25 s after the piece lands, possibly after
    the clock press; a press that finds the lifted piece's destination still open waits this long for it.
    ``removal_margin_s``: a captured piece taken off less than this before the capturing piece's landing is
    read proves no early removal (FPD 3.8): the landing's switch may have closed late (a slow magnet) while the
    hand that had released the piece was already at the captured one; an observation. A slow magnet closes up
    to 0.25 s late and a hand needs 0.2 s or more from releasing a piece to lifting another: 0.05 s.
    """

    bounce_s: float = 0.05
    touch_s: float = 0.15
    stable_s: float = 2.0
    use_clock: bool | None = None
    lost_squares: int = 5
    release_s: float = 0.4
    magnet_s: float = 0.3
    removal_margin_s: float = 0.05

    def __post_init__(self) -> None:
        for name in ("bounce_s", "touch_s", "stable_s", "release_s", "magnet_s", "removal_margin_s"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or v < 0:
                raise ValueError(f"Settings.{name} must be a non-negative number of seconds, got {v!r}")
        if self.touch_s < self.bounce_s:
            raise ValueError("Settings.touch_s must not be shorter than bounce_s")
        if self.lost_squares < 2:
            raise ValueError("Settings.lost_squares must be at least 2")
