"""PDN 3.0 (pdn.fmjd.org; docs/rules.md "Record keeping"): game records, the writer and the reader.

>>> from rig.board import Board
>>> record = GameRecord("portuguese")
>>> board = Board("portuguese")
>>> move = board.parse_move("11-15")
>>> _ = record.add_move(board, move, clock=ClockStamp(599_000, 600_000, False))
>>> print(record.to_pdn().splitlines()[-2])
1. 11-15 {[%clock w0:09:59 B0:10:00]} *
"""

from rig.pdn.clock import ClockStamp
from rig.pdn.errors import PdnError, PdnSyntaxError
from rig.pdn.gametype import GameType, GameTypeError, normal_result, parse_gametype, parse_result, result_text
from rig.pdn.reader import (ParsedGame, PdnReadResult, RawNode, ReplayError, ReplayResult, decode_pdn, read_file,
                            read_game, read_games)
from rig.pdn.record import ROSTER, GameRecord, MoveNode, write_game

__all__ = [
    "ClockStamp", "PdnError", "PdnSyntaxError", "GameType", "GameTypeError", "parse_gametype", "parse_result",
    "result_text", "normal_result", "ParsedGame", "PdnReadResult", "RawNode", "ReplayError", "ReplayResult",
    "read_file", "read_game", "read_games", "decode_pdn", "ROSTER", "GameRecord", "MoveNode", "write_game",
]
