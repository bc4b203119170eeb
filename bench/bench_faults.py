"""Failing switches: real games read through a simulated reed-switch matrix with one faulty switch.

For each variant, fault kind and square (a stuck-closed switch on an empty central square, a dead switch
under a starting piece, a missing diode on a central square), clock and no clock, the real games of
tests/data (and the demo game of rig/data/demo) are simulated (``rig simulate --matrix --fault KIND:SQ``:
the hands, the matrix, the project's scanner and its health monitor) and transcribed in two modes:

- *health*: the scanner with its start checks and diode check, its findings as session ``health`` lines,
  as ``rig run`` and ``rig simulate --matrix`` write them;
- *frames*: a scanner without those checks (no health line: the stuck switch and the ghosts reach the
  frames as they read); the engine finds the fault from the frames alone.

Per fault kind, variant and mode it prints the games, how many were read exactly (the moves that stand),
how many named a sensor fault on the faulty square (and the kinds named), the games with a player
irregularity and the irregularities that stand (a fault must cause none: the games are played without
irregularity; one the engine raised and later set ``dismissed`` for the fault it read is counted apart), the
observations, and faults named on other squares.

With ``--midgame``: switches that fail in the middle of a game instead (see :func:`midgame`).

Usage: python bench/bench_faults.py [--games N] [--variant V] [--kind K] [--show] [--dump DIR]
                                    [--midgame [--plies P ...]]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import zlib
from collections import Counter

from rig.reconstruct import Reconstructor
from rig.session import HealthLine
from rig.simulate import HumanModel, simulate_game
from rig.simulate.games import load_pdn_games
from sensors.simulation import through_matrix
from rig.variants import get_variant

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
DATA = os.path.join(ROOT, "tests", "data")
DEMO = os.path.join(ROOT, "rig", "data", "demo")
MODES = ("health", "frames")
VARIANTS = ("portuguese", "brazilian", "international")


def fault_squares(variant: str) -> dict[str, list[int]]:
    """Per fault kind, the squares tried: central empty squares (stuck closed, missing diode) and the
    front row of each side (dead under a starting piece)."""
    v = get_variant(variant)
    start = set(v.white_start) | set(v.black_start)
    mid = (v.size - 1) / 2

    def centrality(s: int) -> float:
        r, c = v.coords(s)
        return abs(r - mid) + abs(c - mid)

    empty = sorted((s for s in range(1, v.squares + 1) if s not in start), key=lambda s: (centrality(s), s))
    front_w = max(v.white_start, key=lambda s: (v.coords(s)[0] if v.coords(v.white_start[0])[0] < mid
                                                else -v.coords(s)[0], -centrality(s)))
    front_b = min(v.black_start, key=lambda s: (v.coords(s)[0] if v.coords(v.black_start[0])[0] > mid
                                                else -v.coords(s)[0], centrality(s)))
    return {"stuck-closed": empty[:2], "dead": [front_w, front_b], "missing-diode": empty[2:4]}


def real_games(variant: str, limit: int) -> list:
    """The real games of tests/data/<variant>, then the demo game, up to ``limit``."""
    folder = os.path.join(DATA, variant)
    paths = [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".pdn")]
    paths.append(os.path.join(DEMO, f"{variant}.pdn"))
    return [g for path in paths for g in load_pdn_games(path, variant)][:limit]


def transcribe(session, with_health: bool) -> Reconstructor:
    r = Reconstructor(session.header)
    for ev in session.events:
        if with_health or not isinstance(ev, HealthLine):
            r.feed(ev)
    r.finish()
    return r


def show(seed: str, fault: str, mode: str, got: list[str], s, r) -> None:
    """One game read wrong: the first differing move, the irregularities and the faults."""
    i = next((i for i, (a, b) in enumerate(zip(got, s.expected_moves)) if a != b), min(len(got), len(s.expected_moves)))
    irregular = [(x.type, x.number, x.t) for x in r.irregularities if x.status != "dismissed"][:3]
    faults = [(f.square, f.kind, f.since) for f in r.sensor_faults]
    print(f"  {seed} {fault} {mode}: move {i}: {got[i:i + 2]} for {s.expected_moves[i:i + 2]}; {irregular}; "
          f"faults {faults}")


def missed(args, seed: str, fault: str, mode: str, got: list[str], s, r) -> None:
    """A game read wrong: shown (``--show``) and its session written (``--dump``)."""
    if args.show:
        show(seed, fault, mode, got, s, r)
    if args.dump:
        name = seed.replace(":", "_") + "_" + fault.split("@")[0].replace(":", "_") + f"_{mode}.jsonl"
        s.write(os.path.join(args.dump, name))


#: the plies before which a mid-game fault strikes (``--plies`` picks others: plies never looked at)
MIDGAME_PLIES = (10, 16, 22, 28)

#: the mid-game cases: (fault kind, the square of the ply's move it strikes)
MIDGAME = {"dead": ("dead", "landing"), "stuck-closed": ("stuck-closed", "leaving"),
           "dead-under-piece": ("dead", "origin"), "stuck-on-empty": ("stuck-closed", "destination")}

#: the mid-game cases whose switch works again: (the :data:`MIDGAME` case whose switch fails, how many plies
#: later it recovers: half a second before that ply's turn, as it failed): a short failure and a long one
MIDGAME_RECOVERING = {"dead-recovering-2": ("dead", 2), "dead-recovering-8": ("dead", 8),
                      "stuck-closed-recovering-2": ("stuck-closed", 2),
                      "stuck-closed-recovering-8": ("stuck-closed", 8)}


def _selected(case: str, kinds: list[str] | None) -> bool:
    """Whether ``--kind`` picks mid-game case ``case``: a :data:`MIDGAME` case by its name or its fault kind, a
    recovering one (:data:`MIDGAME_RECOVERING`) by its name or the start of it (``stuck-closed-recovering``: both
    spans), never by its fault kind alone (``--kind stuck-closed`` runs what it ran before)."""
    if not kinds:
        return True
    if case in MIDGAME:
        return case in kinds or MIDGAME[case][0] in kinds
    return any(case == k or "recovering" in k and case.startswith(k) for k in kinds)


def _struck(where: str, move, occ_before: frozenset[int], occ_after: frozenset[int]) -> int:
    """The square a mid-game case strikes (:data:`MIDGAME`)."""
    if where == "landing":
        return min(occ_after - occ_before)
    if where == "leaving":
        return min(occ_before - occ_after)
    return move.origin if where == "origin" else move.destination


def swapped_pair(got: list[str], expected: list[str]) -> tuple[str, str] | None:
    """The two squares whose names, swapped in the moves read, give the game's moves (``e7-f6, f8-e7`` read for
    ``g7-f6, f8-g7``): the moves differ only there, so with the fault on the other square of the pair every frame
    reads the same (a stuck or dead switch hides the lift or landing that would tell). None when the moves read
    differ otherwise."""
    if len(got) != len(expected):
        return None
    pairs = set()
    for a, b in zip(got, expected):
        if a == b:
            continue
        ta, tb = re.split(r"([-x])", a), re.split(r"([-x])", b)
        if len(ta) != len(tb) or ta[1::2] != tb[1::2]:
            return None
        pairs |= {frozenset((x, y)) for x, y in zip(ta[::2], tb[::2]) if x != y}
    if len(pairs) != 1 or len(pair := next(iter(pairs))) != 2:
        return None
    first, second = sorted(pair)
    return first, second


def pair_observed(got: list[str], expected: list[str], observations) -> bool:
    """The moves read are the game's with two squares swapped (:func:`swapped_pair`) and an observation names both
    squares: the case issue 9 part 3 asks an observation for (two legal readings the sensors cannot settle)."""
    pair = swapped_pair(got, expected)
    return pair is not None and any(all(re.search(rf"(?<![\w]){re.escape(sq)}(?![\w])", o.why) for sq in pair)
                                    for o in observations)


def midgame_session(variant: str, game, index: int, ply: int, case: str, clock: bool, plies: int | None = None):
    """One mid-game case of :func:`midgame`: real game ``index`` of ``variant`` (``game``) played by the simulator
    (cut after ``plies`` plies if given) and read through a matrix whose switch :data:`MIDGAME` ``case`` names
    fails half a second before ply ``ply``'s turn; a :data:`MIDGAME_RECOVERING` case is its failing case (the same
    game, seeds and switch) with the switch working again half a second before ply ``ply + N``'s turn
    (``dead:SQ@SINCE-UNTIL``). (session, seed, square)."""
    base, recover = MIDGAME_RECOVERING.get(case, (case, 0))
    kind, where = MIDGAME[base]
    seed = f"mid:{variant}:{ply}:{clock}" + (f":{index}" if index else "")
    moves = game.moves if plies is None else game.moves[:plies]
    s0 = simulate_game(variant, moves, fen=game.fen, seed=seed, clock=clock, model=HumanModel(bounce_p=0.0),
                       tags=game.tags)
    turn, before = s0.turns[ply], s0.turns[ply - 1]
    square = _struck(where, game.moves[ply], before.occupied, turn.occupied)
    fault = f"{kind}:{square}@{turn.start_t - 0.5:.4f}"
    if recover:
        fault += f"-{s0.turns[ply + recover].start_t - 0.5:.4f}"
    return through_matrix(s0, [fault], seed=zlib.crc32(seed.encode())), seed, square


def midgame(args) -> int:
    """Switches that fail in the middle of a game (``dead:SQ@T``, ``stuck-closed:SQ@T``): in the first real game
    of each variant (the first ``--games`` with that option given; the first game's seeds do not change, so its
    figures stay comparable and the others are games the engine's mid-game passes were never tried on), half a
    second before plies 10, 16, 22 and 28 (:data:`MIDGAME_PLIES`; ``--plies`` others) (see :data:`MIDGAME`):

    - ``dead``: the switch under the square the ply's move lands on dies (an empty square);
    - ``stuck-closed``: the one under the lowest square the move empties sticks closed (under the piece that
      moves, or under a piece the move captures);
    - ``dead-under-piece``: the switch under the piece that then moves dies (it reads empty at once);
    - ``stuck-on-empty``: the switch under the square the move lands on sticks closed (it reads occupied at
      once, before the piece comes);
    - the recovering cases (:data:`MIDGAME_RECOVERING`, ``dead-recovering-2`` ... ``stuck-closed-recovering-8``):
      ``dead`` or ``stuck-closed``, the switch working again 2 or 8 plies later (run where that ply and two more
      are in the game); picked by ``--kind`` by their names only.

    Prints, per variant, case, clock and mode, the games read exactly and without a player irregularity (one
    dismissed by the engine once it read the fault does not count), the fault named on its square; then
    totals per case."""
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
    cases = list(MIDGAME) + list(MIDGAME_RECOVERING)
    totals = {(c, m): Counter() for c in cases for m in MODES}
    for variant, gi, game in ((v, gi, g) for v in args.variant or VARIANTS
                              for gi, g in enumerate(real_games(v, args.games or 1))):
        for case in cases:
            if not _selected(case, args.kind):
                continue
            base, recover = MIDGAME_RECOVERING.get(case, (case, 0))
            kind = MIDGAME[base][0]
            for clock in (True, False):
                stats = {m: Counter() for m in MODES}
                for ply in args.plies or MIDGAME_PLIES:
                    if ply + recover + 2 >= len(game.moves):
                        continue
                    s, seed, square = midgame_session(variant, game, gi, ply, case, clock)
                    for mode in MODES:
                        st = stats[mode]
                        st["games"] += 1
                        try:
                            r = transcribe(s, mode == "health")
                        except Exception as exc:  # noqa: BLE001 - an engine crash is a miss, counted and shown
                            st["crashed"] += 1
                            print(f"  {seed} {case}:{square}@ply{ply} {mode}: CRASH {type(exc).__name__}: {exc}")
                            continue
                        got = [m.move_text for m in r.moves if not m.withdrawn]
                        standing = [x for x in r.irregularities if x.status != "dismissed"]
                        st["exact"] += got == s.expected_moves and not standing
                        st["pair observed"] += got != s.expected_moves and not standing and pair_observed(
                            got, s.expected_moves, r.observations)
                        st["named"] += any(f.square == square and f.kind == kind and not f.withdrawn
                                           for f in r.sensor_faults)
                        st["irregularities"] += len(standing)
                        st["dismissed"] += len(r.irregularities) - len(standing)
                        st["observations"] += len(r.observations)
                        if got != s.expected_moves or standing:
                            missed(args, seed, f"{case}:{square}@ply{ply}", mode, got, s, r)
                for mode in MODES:
                    st = stats[mode]
                    totals[case, mode].update(st)
                    label = variant + (f" #{gi}" if gi else "")
                    print(f"{label:16} {case:16} {'clock' if clock else 'no clock':8} {mode:6} games {st['games']}  "
                          f"exact without irregularity {st['exact']} (+{st['pair observed']} a pair observed)  "
                          f"named {st['named']}  irregularities "
                          f"{st['irregularities']} (+{st['dismissed']} dismissed)  observations {st['observations']}"
                          + (f"  CRASHED {st['crashed']}" if st["crashed"] else ""), flush=True)
    print("per fault kind and mode:")
    for (case, mode), st in totals.items():
        if st["games"]:
            print(f"  {case:16} {mode:6} games {st['games']:3}  exact without irregularity {st['exact']:3} "
                  f"(+{st['pair observed']} a pair observed)  named "
                  f"{st['named']:3}  irregularities {st['irregularities']} (+{st['dismissed']} dismissed)  "
                  f"observations {st['observations']}" + (f"  CRASHED {st['crashed']}" if st["crashed"] else ""))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, help="real games per variant (default 3; with --midgame 1)")
    p.add_argument("--variant", choices=VARIANTS, action="append")
    p.add_argument("--kind", action="append", help="only these fault kinds")
    p.add_argument("--show", action="store_true", help="print each game read wrong (first differing move)")
    p.add_argument("--dump", metavar="DIR", help="write each game read wrong (or with an irregularity) there")
    p.add_argument("--midgame", action="store_true",
                   help="switches failing in the middle of the game instead (see midgame())")
    p.add_argument("--plies", type=int, nargs="+", metavar="PLY",
                   help="with --midgame: the plies before which the switch fails (default 10 16 22 28)")
    args = p.parse_args(argv)
    if args.midgame:
        return midgame(args)
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
    rows = []
    for variant in args.variant or VARIANTS:
        games = real_games(variant, args.games or 3)
        for kind, squares in fault_squares(variant).items():
            if args.kind and kind not in args.kind:
                continue
            stats = {m: Counter() for m in MODES}
            named = {m: Counter() for m in MODES}
            for gi, game in enumerate(games):
                for square in squares:
                    for clock in (True, False):
                        seed = f"faults:{variant}:{gi}:{square}:{clock}"
                        s0 = simulate_game(variant, game.moves, fen=game.fen, seed=seed, clock=clock,
                                           model=HumanModel(bounce_p=0.0), tags=game.tags)
                        for mode in MODES:
                            s = through_matrix(s0, [f"{kind}:{square}"], seed=zlib.crc32(seed.encode()),
                                               checks=mode == "health")
                            r = transcribe(s, mode == "health")
                            st = stats[mode]
                            st["games"] += 1
                            got = [m.move_text for m in r.moves if not m.withdrawn]
                            st["exact"] += got == s.expected_moves
                            standing = [x for x in r.irregularities if x.status != "dismissed"]
                            if got != s.expected_moves or standing:
                                missed(args, seed, kind, mode, got, s, r)
                            kinds = sorted({f.kind for f in r.sensor_faults if f.square == square and not f.withdrawn})
                            st["named"] += bool(kinds)
                            for k in kinds:
                                named[mode][k] += 1
                            st["irregular games"] += bool(standing)
                            st["irregularities"] += len(standing)
                            st["dismissed"] += len(r.irregularities) - len(standing)
                            st["observations"] += len(r.observations)
                            st["other faults"] += sum(f.square != square and not f.withdrawn for f in r.sensor_faults)
            for mode in MODES:
                st, nm = stats[mode], named[mode]
                rows.append((variant, kind, mode, st, nm))
                print(f"{variant:13} {kind:13} {mode:6} games {st['games']:3}  exact {st['exact']:3}  "
                      f"named {st['named']:3} ({', '.join(f'{k} {n}' for k, n in sorted(nm.items())) or '-'})  "
                      f"games with a player irregularity {st['irregular games']} ({st['irregularities']}, "
                      f"+{st['dismissed']} dismissed)  observations {st['observations']}  "
                      f"faults elsewhere {st['other faults']}", flush=True)
    print("per fault kind and mode:")
    for kind in ("stuck-closed", "dead", "missing-diode"):
        for mode in MODES:
            total: Counter = Counter()
            for _v, k, m, st, _n in rows:
                if k == kind and m == mode:
                    total.update(st)
            if total["games"]:
                print(f"  {kind:13} {mode:6} games {total['games']:3}  exact {total['exact']:3}  named "
                      f"{total['named']:3}  games with a player irregularity {total['irregular games']} "
                      f"({total['irregularities']}, +{total['dismissed']} dismissed)  observations "
                      f"{total['observations']}  faults elsewhere {total['other faults']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
