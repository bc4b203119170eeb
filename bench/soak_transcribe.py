"""Soak test of the reconstruction engine against the session simulator.

Runs simulated sessions for as long as asked: every variant; random legal games of 10-120 plies
(``rig.simulate.random_game``) and the real games of tests/data; clock and no clock; no injection, or one
or two random injections of every type the simulator supports (an injection the simulator refuses at the
ply drawn is drawn again at another ply, then dropped). The human model is, per row of the table:

- each real-board behaviour alone (``--behaviour NAME``: ``HumanModel.with_behaviours(NAME)``, the normal
  hands plus that one behaviour at its ``HumanModel.hard()`` rate), then all together (``--preset hard``);
  with neither option, every one of these rows in turn (the table; what ``./dev bench`` runs);
- ``--preset mix``: the presets calm, normal, noisy and ``HumanModel.for_settings`` (engine settings other
  than the defaults) drawn per session; or one of them (``--preset calm`` ...).

For each session it compares with the simulator's answers:

- the engine's moves that stand and the report's moves (withdrawn ones included);
- its irregularities (type, number, side, status);
- the PDN it writes, read back with ``rig.pdn.read_games``: replays, and its moves are the engine's
  legal moves that stand.

It prints, per row, the sessions run, % of games exact (moves, report moves, irregularities with their
status, PDN), irregularity precision and recall (an engine irregularity is right when one expected has the
same type, move number and side), false alarms and misses by type, the observations the engine recorded
(counted apart: an observation for review is not an alarm), and the first mismatches each with a command
that reproduces it (``--case JSON``; all of them with ``--out``). Exit code 0 (figures), or 1 with
``--strict`` when any session mismatched.

Usage:
    python bench/soak_transcribe.py [--seconds S | --sessions N] [--seed S] [--preset P | --behaviour NAME]
                                    [--out FILE.jsonl] [--show N] [--strict]
    python bench/soak_transcribe.py --case '{"variant": ..., ...}' [--verbose]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import traceback
from collections import Counter
from functools import lru_cache

from rig.pdn import read_games
from rig.reconstruct import Reconstructor, Settings
from rig.simulate import (ALWAYS_CORRECTED, CORRECTABLE, INJECTION_TYPES, HumanModel, InjectionError,
                          PhysicalError, random_game, simulate_game)
from rig.simulate.games import load_pdn_folder
from rig.simulate.model import BEHAVIOURS

VARIANTS = ("portuguese", "brazilian", "international")
PRESETS = ("calm", "normal", "noisy", "for_settings")      #: drawn per session by ``--preset mix``
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests", "data")
#: engine settings other than the defaults, for the ``for_settings`` preset (drawn per session)
ALT_SETTINGS = (Settings(bounce_s=0.04, touch_s=0.18, stable_s=2.5), Settings(bounce_s=0.06, touch_s=0.2),
                Settings(stable_s=3.0), Settings(bounce_s=0.03, touch_s=0.12, stable_s=1.6), Settings(touch_s=0.25),
                Settings(bounce_s=0.02, touch_s=0.1, stable_s=1.5))


@lru_cache(maxsize=None)
def real_games(variant: str) -> tuple:
    """Every game of tests/data/<variant>/*.pdn (real tournament games)."""
    return tuple(load_pdn_folder(os.path.join(DATA, variant), variant))


def model_of(preset: str, settings_index: int) -> tuple[HumanModel, Settings | None]:
    """The human model of a case's preset (``behaviour:NAME`` for one real-board behaviour alone), and the
    engine settings it is made for (None: the defaults)."""
    if preset == "hard":
        return HumanModel.hard(), None
    if preset.startswith("behaviour:"):
        return HumanModel.with_behaviours(preset.split(":", 1)[1]), None
    if preset == "calm":
        return HumanModel.calm(), None
    if preset == "noisy":
        return HumanModel.noisy(), None
    if preset == "for_settings":
        settings = ALT_SETTINGS[settings_index]
        return HumanModel.for_settings(settings), settings
    return HumanModel(), None


def moves_of(case: dict):
    """The game of a case: (moves, fen, tags)."""
    if case["game"] == "random":
        return random_game(case["variant"], case["plies"], case["game_seed"]), None, {}
    game = real_games(case["variant"])[case["game_index"]]
    return game.moves, game.fen, game.tags


def simulate(case: dict):
    moves, fen, tags = moves_of(case)
    model, _ = model_of(case["preset"], case.get("settings", 0))
    return simulate_game(case["variant"], moves, fen=fen, seed=case["seed"], clock=case["clock"],
                         inject=case["inject"], model=model, tags=tags)


def draw_case(rng: random.Random, i: int, preset: str = "mix") -> dict:
    """A random case (without its injections: :func:`place_injections` draws them on the game); ``preset``
    ``mix`` draws one of :data:`PRESETS`."""
    variant = rng.choice(VARIANTS)
    drawn = rng.choice(PRESETS)
    case: dict = {"variant": variant, "seed": i, "clock": rng.random() < 0.5,
                  "preset": drawn if preset == "mix" else preset,
                  "settings": rng.randrange(len(ALT_SETTINGS)), "inject": []}
    if rng.random() < 0.75:
        case.update(game="random", plies=rng.randint(10, 120), game_seed=f"soak:{i}")
    else:
        case.update(game="real", game_index=rng.randrange(len(real_games(variant))))
    return case


def place_injections(rng: random.Random, case: dict, count: int):
    """Draw ``count`` injections (type, ply, corrected) the simulator accepts; returns the session and the
    list of (type, reason) refused along the way."""
    refused = []
    session = simulate(case)
    plies = len(session.turns)
    for _ in range(count):
        kind = rng.choice(INJECTION_TYPES)
        corrected = kind in ALWAYS_CORRECTED or (kind in CORRECTABLE and rng.random() < 0.5)
        for _attempt in range(8):
            ply = 0 if kind == "wrong-setup" else rng.randrange(max(1, plies))
            item = f"{kind}@{ply}" + (":corrected" if corrected and kind not in ALWAYS_CORRECTED else "")
            trial = dict(case, inject=case["inject"] + [item])
            try:
                session = simulate(trial)
            except (InjectionError, PhysicalError) as exc:
                refused.append((kind, str(exc).split(":")[-1].strip()[:60]))
                if kind == "wrong-setup":
                    break
                continue
            case["inject"] = trial["inject"]
            break
    return session, refused


def check(case: dict, session, found: dict | None = None) -> list[str]:
    """The differences between the engine's reading of ``session`` and the simulator's answers; ``found``
    (a dict) receives the engine's irregularities (``got``), the expected ones (``want``) and the engine's
    observations."""
    _, settings = model_of(case["preset"], case.get("settings", 0))
    engine = Reconstructor(session.header, settings)
    for ev in session.events:
        engine.feed(ev)
    engine.finish()
    problems = []
    standing = [m.move_text for m in engine.moves if not m.withdrawn]
    report = [m.move_text for m in engine.moves]
    if standing != session.expected_moves:
        problems.append(f"moves: {_diff(standing, session.expected_moves)}")
    if report != session.expected_report_moves:
        problems.append(f"report moves: {_diff(report, session.expected_report_moves)}")
    got = [{"type": i.type, "number": i.number, "side": i.side, "status": i.status} for i in engine.irregularities]
    want = [{k: d[k] for k in ("type", "number", "side", "status")} for d in session.expected_irregularities]
    if found is not None:
        found.update(got=got, want=want, observations=[(o.type, o.number, o.side) for o in engine.observations])
    if got != want:
        problems.append(f"irregularities: engine {_irr(got)} vs expected {_irr(want)}")
    observed = {(o.type, o.number, o.side) for o in engine.observations}
    unseen = [o for o in session.expected_observations if (o["type"], o["number"], o["side"]) not in observed]
    if unseen:
        problems.append("observations: none for " + ", ".join(f"{o['type']} {o['number']} {o['side']}" for o in unseen))
    parsed = read_games(engine.pdn(), session.header.variant)
    if not parsed.ok or len(parsed.games) != 1:
        problems.append(f"pdn: does not read back: {parsed.errors[:1]}")
    else:
        replay = parsed.games[0].replay()
        if not replay.ok:
            problems.append(f"pdn: does not replay: {replay.error}")
        else:
            texts = [replay.boards[k].move_text(m) for k, m in enumerate(replay.moves) if m is not None]
            # the main line is the moves that stand, in order; an illegal one may be left out (a setup
            # stands for it), a legal one may not
            standing_entries = [m for m in engine.moves if not m.withdrawn]
            k = 0
            for m in standing_entries:
                if k < len(texts) and texts[k] == m.move_text:
                    k += 1
                elif m.legal:
                    break
            if k != len(texts) or len(texts) < sum(m.legal for m in standing_entries):
                problems.append(f"pdn: moves {_diff(texts, [m.move_text for m in standing_entries])}")
    return problems


def _irr(items: list[dict]) -> str:
    return "[" + ", ".join(f"{d['type']} {d['number']} {d['side']} {d['status']}" for d in items) + "]"


def _diff(got: list[str], want: list[str]) -> str:
    k = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return f"first difference at {k}: engine {got[k:k + 3]} vs expected {want[k:k + 3]} ({len(got)} vs {len(want)})"


class Row:
    """The figures of one row of the table (one human model)."""

    def __init__(self, name: str):
        self.name = name
        self.sessions = self.exact = self.crashes = 0
        self.expected = self.raised = self.right = self.observations = 0
        self.false: Counter = Counter()
        self.missed: Counter = Counter()
        self.observed: Counter = Counter()
        #: observations on a move with an expected irregularity of that type (an alarm the engine could not
        #: prove) apart from those in regular play
        self.observed_on_irregular: Counter = Counter()
        self.raised_by: Counter = Counter()          #: irregularities raised, by type
        self.right_by: Counter = Counter()           #: of them right, by type
        self.counts: dict[str, Counter] = {k: Counter() for k in ("variant", "game", "clock", "injections",
                                                                   "type", "refused", "preset")}
        self.mismatches: list[tuple[dict, list[str]]] = []
        self.by_clock: dict[bool, list[int]] = {True: [0, 0], False: [0, 0]}     #: clock -> [sessions, exact]

    def add(self, case: dict, problems: list[str], found: dict, refused) -> None:
        self.sessions += 1
        self.exact += not problems
        self.crashes += any(p.startswith("crash") for p in problems)
        self.by_clock[bool(case["clock"])][0] += 1
        self.by_clock[bool(case["clock"])][1] += not problems
        got = Counter((d["type"], d["number"], d["side"]) for d in found.get("got", []))
        want = Counter((d["type"], d["number"], d["side"]) for d in found.get("want", []))
        self.expected += sum(want.values())
        self.raised += sum(got.values())
        self.right += sum((got & want).values())
        self.false.update(k[0] for k in (got - want).elements())
        self.missed.update(k[0] for k in (want - got).elements())
        self.raised_by.update(k[0] for k in got.elements())
        self.right_by.update(k[0] for k in (got & want).elements())
        observations = found.get("observations", [])
        self.observations += len(observations)
        self.observed.update(o[0] for o in observations)
        self.observed_on_irregular.update(o[0] for o in observations if o in want)
        c = self.counts
        c["variant"][case["variant"]] += 1
        c["game"][case["game"]] += 1
        c["clock"]["clock" if case["clock"] else "no clock"] += 1
        c["preset"][case["preset"]] += 1
        c["injections"][len(case["inject"])] += 1
        for item in case["inject"]:
            c["type"][item.split("@")[0] + (":corrected" if item.endswith(":corrected") else "")] += 1
        for kind, _reason in refused:
            c["refused"][kind] += 1
        if problems:
            self.mismatches.append((case, problems))

    def figures(self) -> tuple[str, ...]:
        n = max(1, self.sessions)
        precision = self.right / self.raised if self.raised else 1.0
        recall = self.right / self.expected if self.expected else 1.0
        split = [f"{100 * e / r:.1f}" if r else "-" for r, e in (self.by_clock[True], self.by_clock[False])]
        return (self.name, str(self.sessions), f"{100 * self.exact / n:.1f}", *split, f"{precision:.3f}",
                f"{recall:.3f}", f"{(self.raised - self.right) / n:.2f}", f"{self.observations / n:.2f}",
                str(self.crashes))


HEAD = ("model", "games", "% exact", "clock", "no clock", "irr. precision", "irr. recall", "false alarms/game",
        "observations/game", "crashes")


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = [HEAD] + [r.figures() for r in rows]
    widths = [max(len(line[k]) for line in lines) for k in range(len(HEAD))]
    out = ["| " + " | ".join(c.ljust(w) for c, w in zip(line, widths)) + " |" for line in lines]
    out.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)


def soak(row: Row, preset: str, seconds: float, rng: random.Random, base: int, out: str | None,
         sessions: int | None = None) -> None:
    """Run sessions of ``preset`` for ``seconds`` (or, given, exactly ``sessions`` of them) into ``row``."""
    deadline = time.monotonic() + seconds
    i = 0
    while row.sessions < sessions if sessions is not None else time.monotonic() < deadline:
        i += 1
        case = draw_case(rng, base + i, preset)
        count = rng.choice((0, 1, 1, 2))
        try:
            session, refused = place_injections(rng, case, count)
        except PhysicalError as exc:
            row.counts["refused"]["(no injection) " + str(exc)[:50]] += 1
            continue
        found: dict = {}
        try:
            problems = check(case, session, found)
        except Exception:  # noqa: BLE001 - a crash of the engine is a finding
            problems = ["crash: " + traceback.format_exc(limit=3).replace("\n", " | ")]
        row.add(case, problems, found, refused)
        if problems and out:
            with open(out, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"row": row.name, "case": case, "problems": problems}) + "\n")


def run(seconds: float, seed: int, out: str | None, presets: list[str], show: int, strict: bool,
        sessions: int | None = None) -> int:
    rows = []
    started = time.monotonic()
    for k, preset in enumerate(presets):
        row = Row(preset.split(":", 1)[-1])
        left = seconds - (time.monotonic() - started)
        # each row its own seeded cases: a row run alone (--behaviour, --preset) draws the table's cases
        rng = random.Random(f"soak:{seed}:{preset}")
        soak(row, preset, max(0.0, left / (len(presets) - k)), rng, seed * 1_000_000, out, sessions)
        rows.append(row)
        print(f"{row.name}: {row.sessions} sessions, {row.exact} exact", file=sys.stderr, flush=True)
    for row in rows:
        print(f"\n## {row.name}: {row.sessions} sessions ({len(row.mismatches)} with a mismatch)")
        for key, counter in row.counts.items():
            if counter:
                print(f"  per {key}: " + ", ".join(f"{k}: {v}" for k, v in sorted(counter.items(), key=str)))
        for name, counter in (("false alarms", row.false), ("missed", row.missed), ("observations", row.observed),
                              ("observations on an expected irregularity", row.observed_on_irregular)):
            if counter:
                print(f"  {name} by type: " + ", ".join(f"{k}: {v}" for k, v in counter.most_common()))
        if row.raised_by:
            print("  precision by type: " + ", ".join(
                f"{k}: {row.right_by[k] / n:.3f} ({row.right_by[k]}/{n})" for k, n in sorted(row.raised_by.items())))
        for case, problems in row.mismatches[:show]:
            print(f"  mismatch: {'; '.join(problems)}\n    reproduce: python bench/soak_transcribe.py --case "
                  f"'{json.dumps(case)}'")
    size = f"{sessions} sessions per row" if sessions is not None else f"{seconds:.0f} s"
    print(f"\nsoak_transcribe: seed {seed}, {size}\n")
    print(table(rows))
    return 1 if strict and any(r.mismatches for r in rows) else 0


def replay_case(text: str, verbose: bool) -> int:
    case = json.loads(text)
    session = simulate(case)
    problems = check(case, session)
    if verbose:
        print("expected moves:", session.expected_moves)
        print("expected irregularities:", session.expected_irregularities)
        print("notes:", session.notes)
    print("\n".join(problems) or "no mismatch")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=60.0, help="how long to run (default 60)")
    p.add_argument("--seed", type=int, default=0, help="seed of this run (run several processes with others)")
    p.add_argument("--out", help="append each mismatch to this JSON Lines file")
    p.add_argument("--case", help="run one case (the JSON printed with a mismatch)")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--preset", choices=("hard", "mix") + PRESETS,
                   help="one row: this human model (mix: calm/normal/noisy/for_settings drawn per session)")
    p.add_argument("--behaviour", choices=sorted(BEHAVIOURS),
                   help="one row: the normal model with this real-board behaviour alone")
    p.add_argument("--show", type=int, default=3, help="mismatches printed per row (default 3; all with --out)")
    p.add_argument("--strict", action="store_true", help="exit 1 when any session mismatched")
    p.add_argument("--sessions", type=int, metavar="N",
                   help="exactly N sessions per row instead of --seconds (the same figures on any machine)")
    args = p.parse_args(argv)
    if args.case:
        return replay_case(args.case, args.verbose)
    if args.preset and args.behaviour:
        p.error("give --preset or --behaviour, not both")
    if args.preset:
        presets = [args.preset]
    elif args.behaviour:
        presets = ["behaviour:" + args.behaviour]
    else:
        presets = ["behaviour:" + name for name in BEHAVIOURS] + ["hard"]
    return run(args.seconds, args.seed, args.out, presets, args.show, args.strict, args.sessions)


if __name__ == "__main__":
    sys.exit(main())
