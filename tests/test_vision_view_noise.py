"""Where the view can tell a king (vision/kings_calibration.py ``gap_noise``): a square allows a man to be told from a
king (two stacked men, FPD 000 art. 3.1 d, FMJD 002 art. 3.5) when the two models' ideal gap there is at least the
noise the calibration measured on the start men (``StackReader.allows``). That noise is the spread of each man's gap
about his own colour's median: each colour's offset is a bias the start bias takes off every fit of that colour, not
noise. Pooled about one median, the two colours' opposite offsets left a near-row square of the bench's seed 7
board 3 "the view cannot tell", its kings read "king unknown" however clear their fits."""

from __future__ import annotations


import numpy as np
import pytest

from vision.kings_calibration import gap_noise

from tests.vision_helpers import bench_positions

#: the bench's seed 7 board 3 (bench_vision.py: a Portuguese board, white on the picture's right) and square 16 on
#: the rows nearest the camera (a king's top 2.68 pixels beyond a man's): its white start men's gaps lie 62-102 over a
#: man's ideal gap, its black start men's -164 .. +1, and the square's ideal gap between a man and a king is 91
SEED, BOARD, SQUARE = 7, 3, 16
KINGS = {9: "W", 13: "W", 17: "B"}    # still positions with a king on the square, fitted clear of the band
MEN = {1: "b", 12: "b", 20: "w", 21: "b", 22: "w"}  # and with a man on it


def _mad(x: np.ndarray) -> float:
    return float(1.4826 * np.median(np.abs(x - np.median(x))))


def test_each_colours_offset_is_not_noise():
    """Two colours whose gaps scatter by the same spread about opposite offsets: the noise is that spread, not the
    distance between the offsets (pooled, it was)."""
    rng = np.random.default_rng(3)
    white, black = 80 + 10 * rng.standard_normal(12), -70 + 10 * rng.standard_normal(12)
    gaps, colour = np.concatenate([white, black]), np.repeat([0, 1], 12)
    noise = gap_noise(gaps, colour)
    own = np.concatenate([white - np.median(white), black - np.median(black)])
    assert noise == pytest.approx(_mad(own))
    assert 5 < noise < 20 < 60 < _mad(gaps)


def test_one_offset_for_both_colours_is_the_pooled_spread():
    """Where both colours' gaps scatter about the same median the noise is the pooled spread, as before; no men, no
    noise."""
    gaps = np.array([10.0, 14.0, 6.0, 30.0, -2.0, 10.0, 18.0, 10.0, 2.0, 10.0])
    colour = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    assert np.median(gaps[colour == 0]) == np.median(gaps[colour == 1])
    assert gap_noise(gaps, colour) == pytest.approx(_mad(gaps))
    assert gap_noise(np.array([]), np.array([], int)) == 0.0


@pytest.fixture(scope="module")
def board():
    """The bench's board (calibrated) and its still positions with a piece on the square: (variant, classifier,
    {position: (pieces, picture)})."""
    v, _, config, pictures = bench_positions(SEED, BOARD, KINGS | MEN)
    for k, (pieces, _) in pictures.items():
        assert pieces[SQUARE] == (KINGS | MEN)[k]
    return v, config.classifier(), pictures


def test_every_square_allows_a_king_and_its_kings_are_read(board):
    """The board's noise about each colour's own median lies under every square's ideal gap: the square allows a
    king, and its kings, fitted clear of the band, are read kings."""
    v, clf, pictures = board
    at = {sq: rc for rc, sq in clf.square_at.items()}
    reader = clf.stacks
    assert all(reader.allows(rc) for rc in reader.squares)
    assert reader.noise < reader.models[at[SQUARE]].separation
    for k, code in KINGS.items():
        reading = clf.read(pictures[k][1])
        assert SQUARE not in reading.unknown and reading.squares[SQUARE] == code, k


def test_no_man_on_the_square_is_said_a_king(board):
    """The men on the square are read men, or left "king unknown" (the rules give their stack): never kings."""
    v, clf, pictures = board
    for k, code in MEN.items():
        reading = clf.read(pictures[k][1])
        assert reading.squares[SQUARE] == code, k


def test_where_the_noise_passes_the_gap_the_view_still_cannot_tell(board):
    """The rule itself is kept: with the noise over the square's ideal gap (as the pooled spread made it, 98.6) the
    square does not allow a king, and its king reads "king unknown" in its colour."""
    v, clf, pictures = board
    at = {sq: rc for rc, sq in clf.square_at.items()}
    reader = clf.stacks
    kept = reader.noise
    reader.noise = 1.01 * reader.models[at[SQUARE]].separation
    try:
        assert not reader.allows(at[SQUARE])
        for k, code in KINGS.items():
            reading = clf.read(pictures[k][1])
            assert SQUARE in reading.unknown and reading.squares[SQUARE] == code.lower(), k
    finally:
        reader.noise = kept
