#!/usr/bin/env python3
"""Check Rookling's moves in tablebase positions against Fathom, over UCI.

For each material (a Syzygy table name such as KQvKR; by default every table of up to
--max-pieces pieces found in --tables), random legal positions are drawn, Rookling is
given them with SyzygyPath set (`position fen ...`, `go movetime` or `go depth`), and its
`bestmove` must be one that Fathom (`/usr/games/fathom`, an independent prober) lists as
keeping the position's result: a winning move when it lists any, else a drawing move when
it lists any (Fathom counts moves to cursed wins and blessed losses as drawing, the
fifty-move rule applied to the half-move clock, as Syzygy50MoveRule does by default),
else any move. Every search must also report `tbhits` above 0 in its last `info` line.

The half-move clock is 0 for a third of the positions, random for a third, and for the
last third set near the fifty-move boundary of the position's DTZ, so that wins turn into
cursed wins and losses into blessed losses; positions with an en passant capture are
drawn where both sides have pawns. Tables that are cursed wins or blessed losses with a
clock of 0 (5-piece tables such as KBBvKN) are sampled among the decisive positions too.

Needs python-chess (`pip install chess`) for the positions and Fathom
(`apt-get install fathom`) for the answers.

    python3 scripts/tb_check.py --tables tests/data/syzygy --positions 20
    python3 scripts/tb_check.py --tables DIR1:DIR2 --materials KRBvKR,KQvKR --depth 8
    python3 scripts/tb_check.py --tables DIR --option Threads=2 --option Hash=64
"""

import argparse
import os
import random
import re
import subprocess
import sys

from uci_engine import Engine

try:
    import chess
    import chess.syzygy
    from tb_endings import random_position as any_position
except ImportError:
    sys.exit("this script needs python-chess: pip install chess")


def fathom(fathom_path, tables, board):
    """Fathom's verdict on `board`: its WDL name and the moves it lists as winning,
    drawing and losing (as python-chess moves); None when it cannot probe it."""
    out = subprocess.run([fathom_path, f"--path={tables}", board.fen()],
                         capture_output=True, text=True).stdout
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', out, re.M))
    if "WDL" not in tags:
        return None
    lists = {}
    for key in ("WinningMoves", "DrawingMoves", "LosingMoves"):
        moves = set()
        for san in filter(None, (s.strip() for s in tags.get(key, "").split(","))):
            moves.add(board.parse_san(san))
        lists[key] = moves
    if set().union(*lists.values()) != set(board.legal_moves):
        raise RuntimeError(f"Fathom's lists are not the legal moves of {board.fen()}")
    return tags["WDL"], lists


def random_position(material, rng):
    """A random legal position of `material` with a move to play: unlike the endings
    script, positions with too little material to mate are kept (KBvK, KNvK, ... are
    tables too)."""
    return any_position(material, rng, playable=lambda board: any(board.legal_moves))


def en_passant_position(material, rng, tries=2000):
    """A position of `material` just after a double pawn push that can be taken en
    passant, or None when none is found (or the material has pawns on one side only)."""
    first, second = material.split("v")
    if "P" not in first or "P" not in second:
        return None
    for _ in range(tries):
        board = random_position(material, rng)
        for move in list(board.legal_moves):
            if board.piece_type_at(move.from_square) != chess.PAWN:
                continue
            if abs(move.to_square - move.from_square) != 16:
                continue
            after = board.copy()
            after.push(move)
            if after.has_legal_en_passant() and any(after.legal_moves):
                return chess.Board(after.fen())
    return None


def choose_clock(board, tb, rng, kind):
    """A half-move clock for `board`: 0, random, or near where the fifty-move rule turns
    its result (a win DTZ plies from zeroing is cursed when DTZ + clock passes 100; a
    loser escapes when the winner cannot zero in time)."""
    if kind == 0:
        return 0
    if kind == 1:
        return rng.randrange(0, 100)
    try:
        dtz = abs(tb.probe_dtz(board))
    except (KeyError, chess.syzygy.MissingTableError):
        return rng.randrange(0, 100)
    if dtz == 0 or dtz > 100:
        return rng.randrange(0, 100)
    edge = rng.choice([100 - dtz, 100 - 2 * dtz, 101 - dtz])
    return max(0, min(99, edge + rng.randrange(-3, 4)))


def table_names(dirs, max_pieces):
    """The tables with both files in `dirs`, of at most `max_pieces` pieces."""
    names = set()
    for d in dirs:
        for f in os.listdir(d):
            stem, ext = os.path.splitext(f)
            if ext == ".rtbw" and os.path.exists(os.path.join(d, stem + ".rtbz")):
                if len(stem) - 1 <= max_pieces:
                    names.add(stem)
    return sorted(names)


def field(line, word):
    """The integer after `word` in an info line."""
    m = re.search(rf"\b{word} (\d+)", line)
    return int(m.group(1)) if m else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", required=True,
                        help="SyzygyPath: one or more directories, ':'-separated")
    parser.add_argument("--materials", help="comma-separated tables (default: all found)")
    parser.add_argument("--max-pieces", type=int, default=5)
    parser.add_argument("--positions", type=int, default=10, help="per material")
    parser.add_argument("--movetime", type=int, default=200, help="ms per move")
    parser.add_argument("--depth", type=int, help="go depth N instead of movetime")
    parser.add_argument("--rookling", default="./target/release/rookling")
    parser.add_argument("--fathom", default="/usr/games/fathom")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="another UCI option to set (Threads=2, Hash=64, ...)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    dirs = args.tables.split(":")
    rng = random.Random(args.seed)
    tb = chess.syzygy.Tablebase()
    for d in dirs:
        tb.add_directory(d)
    materials = (args.materials.split(",") if args.materials
                 else table_names(dirs, args.max_pieces))
    go = f"go depth {args.depth}" if args.depth else f"go movetime {args.movetime}"

    engine = Engine(args.rookling)
    for option in args.option:
        name, _, value = option.partition("=")
        engine.send(f"setoption name {name} value {value}")
    engine.send(f"setoption name SyzygyPath value {args.tables}")
    for line in engine.sync():
        print(line)
    checked = failures = 0
    verdicts = {}
    try:
        for material in materials:
            for i in range(args.positions):
                board = None
                if i % 5 == 4:
                    board = en_passant_position(material, rng)
                if board is None:
                    board = random_position(material, rng)
                board.halfmove_clock = choose_clock(board, tb, rng, i % 3)
                verdict = fathom(args.fathom, args.tables, board)
                if verdict is None:
                    print(f"FAIL {material} {board.fen()}: Fathom cannot probe it")
                    failures += 1
                    continue
                wdl, lists = verdict
                # The moves of the best list: Fathom's header can say Win where the
                # clock leaves no winning move (DTZ 1 at clock 99: every move reaches
                # 100), and its lists are what the moves keep.
                best_list = next(k for k in ("WinningMoves", "DrawingMoves", "LosingMoves")
                                 if lists[k])
                keep = lists[best_list]
                if best_list == "DrawingMoves" and wdl == "Win":
                    wdl = "Win (no winning move at this clock)"
                engine.send("ucinewgame")
                engine.send(f"position fen {board.fen()}")
                engine.send(go)
                lines = engine.read_until("bestmove")
                best = chess.Move.from_uci(lines[-1].split()[1])
                infos = [l for l in lines if l.startswith("info") and " tbhits " in l]
                tbhits = field(infos[-1], "tbhits") if infos else None
                ok = best in keep and tbhits is not None and tbhits > 0
                checked += 1
                key = wdl + (" ep" if board.ep_square is not None else "")
                verdicts[key] = verdicts.get(key, 0) + 1
                if not ok:
                    failures += 1
                    print(f"FAIL {material} {board.fen()}: Fathom {wdl}, "
                          f"bestmove {board.san(best)}, tbhits {tbhits}, keeping: "
                          f"{', '.join(sorted(board.san(m) for m in keep))}")
                    print("  " + (infos[-1] if infos else "(no info line with tbhits)"))
                elif args.verbose:
                    print(f"ok {material} {board.fen()}: {wdl}, {board.san(best)}, "
                          f"tbhits {tbhits}")
            print(f"{material}: {args.positions} positions", flush=True)
    finally:
        engine.quit()
    shown = ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))
    print(f"{checked} positions of {len(materials)} tables checked ({shown}); "
          f"{failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
