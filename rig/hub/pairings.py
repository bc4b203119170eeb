"""Pairings of a tournament: which board plays which game of which round, from a CSV or TOML file.

CSV (a header line, then one pairing per line; ``variant`` and ``event`` optional)::

    round,board,white,black,variant
    1,b1,Ana Silva,Rui Costa,international

TOML::

    [[pairing]]
    round = 1
    board = "b1"
    white = "Ana Silva"
    black = "Rui Costa"

The order of a round's pairings in the file is the order of its games in the round PDN.
"""

from __future__ import annotations

import csv
import io
import tomllib
from dataclasses import dataclass

from rig.hub import HubError
from rig.hub.protocol import check_id
from rig.variants import VARIANTS, Variant, get_variant

__all__ = ["Pairing", "load_pairings", "parse_pairings"]


@dataclass(frozen=True)
class Pairing:
    round: int
    board: str
    white: str
    black: str
    position: int = 0
    variant: Variant | None = None
    event: str | None = None


def load_pairings(path: str) -> list[Pairing]:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise HubError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise HubError(f"{path}: not UTF-8") from None
    return parse_pairings(text, "toml" if path.endswith(".toml") else "csv", path)


def parse_pairings(text: str, fmt: str, name: str = "pairings") -> list[Pairing]:
    """The pairings in ``text`` (``fmt`` ``csv`` or ``toml``); :class:`HubError` names the bad entry."""
    rows: list[tuple[str, dict]] = []
    if fmt == "toml":
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise HubError(f"{name}: {exc}") from None
        items = doc.get("pairing")
        if not isinstance(items, list):
            raise HubError(f"{name}: expected [[pairing]] tables")
        rows = [(f"pairing {i}", item) for i, item in enumerate(items, 1)]
    else:
        reader = csv.DictReader(io.StringIO(text))
        missing = {"round", "board", "white", "black"} - set(reader.fieldnames or ())
        if missing:
            raise HubError(f"{name}: the header line lacks {', '.join(sorted(missing))}")
        rows = [(f"line {i}", row) for i, row in enumerate(reader, 2)]
    out: list[Pairing] = []
    seen: set[tuple[int, str]] = set()
    positions: dict[int, int] = {}
    for where, row in rows:
        try:
            rnd = int(str(row.get("round", "")).strip())
        except ValueError:
            raise HubError(f"{name}: {where}: round must be a number, not {row.get('round')!r}") from None
        if rnd < 1:
            raise HubError(f"{name}: {where}: round must be 1 or more")
        try:
            board = check_id(str(row.get("board", "")).strip(), "board")
        except HubError as exc:
            raise HubError(f"{name}: {where}: {exc}") from None
        white, black = str(row.get("white") or "").strip(), str(row.get("black") or "").strip()
        if not white or not black:
            raise HubError(f"{name}: {where}: white and black are needed")
        variant = str(row.get("variant") or "").strip() or None
        if variant is not None:
            if variant not in VARIANTS:
                raise HubError(f"{name}: {where}: unknown variant {variant!r}")
            variant = get_variant(variant)  # a pairings file is an edge: the name is resolved here, once
        if (rnd, board) in seen:
            raise HubError(f"{name}: {where}: board {board} is paired twice in round {rnd}")
        seen.add((rnd, board))
        positions[rnd] = positions.get(rnd, 0) + 1
        out.append(Pairing(rnd, board, white, black, positions[rnd], variant,
                           str(row.get("event") or "").strip() or None))
    return out
