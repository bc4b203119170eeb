"""Interop: PDN written by the rig is read back to the same moves by the rig, pydraughts and py-draughts,
and the PDN the peers write is read by the rig.

The peers are GPL and share the import name ``draughts``: each lives in its own virtualenv
(``./dev`` sets them up) and is driven here as a subprocess, one call per peer for all games.
Both peers play international and brazilian; neither plays portuguese, whose games round-trip
through the rig only (tests/test_pdn_props.py and the real games below).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path

import pytest

from rig.board import Board
from rig.fen import parse_fen
from rig.pdn import ClockStamp, GameRecord, read_file, read_game, read_games
from rig.variants import get_variant

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
PYDRAUGHTS = ROOT / ".venv-pydraughts" / "bin" / "python"
PY_DRAUGHTS = ROOT / ".venv-py-draughts" / "bin" / "python"

# pydraughts 0.6.7: draughts.PDN.PDNReader, draughts.Board(variant, fen), draughts.Move(board, pdn_move=...).
PYDRAUGHTS_SCRIPT = r"""
import json, sys
from draughts.PDN import PDNReader, PDNWriter
from draughts import Board, Move
NAMES = {"international": "standard", "brazilian": "brazilian"}
out = []
for item in json.load(sys.stdin):
    try:
        games = []
        for g in PDNReader(pdn_text=item["pdn"]).games:
            board = Board(NAMES[item["variant"]], fen=g.tags.get("FEN", "startpos"))
            seq = []
            for text in g.moves:
                move = Move(board, pdn_move=text)
                seq.append(move.pdn_move)
                board.push(move)
            own = PDNWriter(filename="", board=board, game_ending=g.game_ending).pdn_text
            games.append({"moves": seq, "fen": board.fen, "result": g.game_ending, "pdn": own})
        out.append({"games": games})
    except Exception as exc:
        out.append({"error": f"{type(exc).__name__}: {exc}"})
json.dump(out, sys.stdout)
"""

# py-draughts 1.10: Board.from_pdn (one game; no setups), moves with 0-based square_list/captured_list.
PY_DRAUGHTS_SCRIPT = r"""
import json, sys
from draughts.boards.standard import Board as International
from draughts.boards.brazilian import Board as Brazilian
BOARDS = {"international": International, "brazilian": Brazilian}
out = []
for item in json.load(sys.stdin):
    try:
        board = BOARDS[item["variant"]].from_pdn(item["pdn"])
        seq = [[m.square_list[0] + 1, m.square_list[-1] + 1, sorted(c + 1 for c in m.captured_list)]
               for m in board._moves_stack]
        out.append({"moves": seq, "fen": board.fen, "pdn": board.pdn})
    except Exception as exc:
        out.append({"error": f"{type(exc).__name__}: {exc}"})
json.dump(out, sys.stdout)
"""


def _run(python: Path, script: str, items: list[dict]) -> list[dict]:
    assert python.exists(), f"{python} missing: run ./dev test (it sets up the peer environments)"
    proc = subprocess.run([str(python), "-c", script], input=json.dumps(items), capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def _random_record(variant: str, seed: int, start_plies: int, plies: int) -> GameRecord:
    """A random legal game with comments and clocks, from the position after ``start_plies`` random plies."""
    rng = random.Random(seed)
    board = Board(variant)
    for _ in range(start_plies):
        if not board.legal_moves:
            break
        board.push(rng.choice(board.legal_moves))
    record = GameRecord(variant, {"Event": f"random game {seed}", "White": "Rig, A.", "Black": "Rig, B."},
                        board.fen())
    board = Board(variant, board.fen())
    white_ms = black_ms = 600_000
    for _ in range(plies):
        moves = board.legal_moves_all_paths()
        if not moves:
            break
        move = rng.choice(moves)
        if board.turn:
            white_ms -= rng.randint(0, 15_000) // 1000 * 1000
        else:
            black_ms -= rng.randint(0, 15_000) // 1000 * 1000
        clock = ClockStamp(max(white_ms, 0), max(black_ms, 0), not board.turn) if rng.random() < 0.7 else None
        comment = rng.choice([None, None, None, "a fine move", "(was 33-29 better?)"])
        record.add_move(board, move, comment, clock)
        board.push(move)
    if board.is_game_over():
        record.set_result({True: "1-0", False: "0-1"}[board.winner()])
    return record


def _real_records(variant: str) -> list[GameRecord]:
    records = []
    for path in sorted((DATA / variant).glob("*.pdn")):
        result = read_file(path, variant)
        assert result.ok, result.errors
        records.extend(g.to_record() for g in result.games)
    return records


def _corpus(variant: str, black_start: bool) -> list[GameRecord]:
    records = _real_records(variant)
    seeds = range(12)
    for seed in seeds:
        start = 2 * (seed % 4) + (1 if black_start else 0)
        records.append(_random_record(variant, 1000 * seed + len(variant) + black_start, start, 90))
    return records


def _expected(record: GameRecord) -> tuple[list[tuple[int, int, list[int]]], str]:
    moves = [(n.move.origin, n.move.destination, sorted(n.move.captured)) for n in record.nodes]
    return moves, record.position().fen()


def _same_position(fen_a: str, fen_b: str, variant: str) -> bool:
    fen_a = re.sub(r'^\[FEN "(.*)"\]$', r"\1", fen_a.strip())
    return parse_fen(fen_a, get_variant(variant)) == parse_fen(fen_b, get_variant(variant))


def _ends(variant: str, text: str) -> tuple[int, int]:
    squares = re.split(r"[-x:]", text)
    v = get_variant(variant)
    return v.parse_square(squares[0]), v.parse_square(squares[-1])


@pytest.fixture(scope="module")
def corpus() -> dict[str, list[GameRecord]]:
    out = {}
    for variant in ("international", "brazilian"):
        out[variant] = _corpus(variant, False)
        out[variant + "/black-first"] = [_random_record(variant, 77 + s, 2 * s + 1, 60) for s in range(6)]
    return out


def test_corpus_has_real_games_and_the_rig_reads_its_own_output(corpus):
    assert len(_real_records("international")) >= 1 and len(_real_records("brazilian")) >= 1
    for records in corpus.values():
        for record in records:
            game = read_game(record.to_pdn(), "portuguese")
            replay = game.replay()
            assert replay.ok, replay.error
            assert [(m.origin, m.destination, sorted(m.captured)) for m in replay.moves] == _expected(record)[0]


@pytest.mark.slow
def test_pydraughts_reads_the_rig_to_the_same_moves(corpus):
    # pydraughts 0.6.7's PDNReader repeats the first move of a game that starts with black to move
    # ("1... 19-23" is read as 19-23 19-23): those games are checked with py-draughts only.
    # pydraughts generates moves slowly (1-2 s per game): it gets a sample of the corpus, two real
    # games of each variant in one multi-game text, and one random game.
    items, expected = [], []
    for variant in ("international", "brazilian"):
        real = _real_records(variant)[:2]
        items.append({"variant": variant, "pdn": "".join(r.to_pdn() for r in real)})
        expected.append((variant, real))
        for record in corpus[variant][len(_real_records(variant)):][:1]:
            items.append({"variant": variant, "pdn": record.to_pdn()})
            expected.append((variant, [record]))
    answers = _run(PYDRAUGHTS, PYDRAUGHTS_SCRIPT, items)
    for (variant, records), answer in zip(expected, answers):
        assert "error" not in answer, (variant, answer)
        assert len(answer["games"]) == len(records)
        for record, got in zip(records, answer["games"]):
            moves, final = _expected(record)
            assert [_ends(variant, t) for t in got["moves"]] == [(o, d) for o, d, _ in moves]
            assert _same_position(got["fen"], final, variant)
            assert got["result"] == record.result
            # and the rig reads what pydraughts writes back to the same moves
            back = read_game(got["pdn"], "portuguese")
            assert back.variant.name == variant
            replay = back.replay()
            assert replay.ok, replay.error
            assert [(m.origin, m.destination, sorted(m.captured)) for m in replay.moves] == moves


def test_py_draughts_reads_the_rig_to_the_same_moves(corpus):
    items, expected = [], []
    for key, records in corpus.items():
        variant = key.split("/")[0]
        for record in records:
            items.append({"variant": variant, "pdn": record.to_pdn()})
            expected.append((variant, record))
    answers = _run(PY_DRAUGHTS, PY_DRAUGHTS_SCRIPT, items)
    for (variant, record), answer in zip(expected, answers):
        assert "error" not in answer, (variant, answer, record.to_pdn())
        moves, final = _expected(record)
        assert [(o, d, c) for o, d, c in answer["moves"]] == [(o, d, c) for o, d, c in moves]
        assert _same_position(answer["fen"], final, variant)
        # the rig reads py-draughts' own PDN back to the same moves
        back = read_games(answer["pdn"], variant)
        assert back.ok, back.errors
        replay = back.games[0].replay()
        assert replay.ok, replay.error
        assert [(m.origin, m.destination, sorted(m.captured)) for m in replay.moves] == moves
