#!/usr/bin/env python3
"""Why were games lost: too little depth, or a wrong evaluation? Over UCI.

For each game of a match PGN (fastchess or cutechess, with the engines' `score/depth`
comments) that the opponent won, this script finds the first position where the
opponent's own search scored its side `--threshold` centipawns or more while our last
score was still within `--near` of 0: the moment the loss was seen by one side and not
the other. There, with us to move, it searches with our engine for each of `--times`
seconds (the first about what the game gave a move) and with the reference engine
(Stockfish at full strength) for `--ref-time`, and prints each score from our side.

If our scores fall towards the reference's as the time grows, the game was lost to
depth (a faster or better-pruned search would have seen it); if they stay near 0 even
with 40 times the time, the evaluation misjudges the position.

    python3 scripts/match.py ... --pgn g11-2600.pgn
    python3 scripts/loss_probe.py g11-2600.pgn --engine target/release/rookling

Each search starts from an empty hash table (`ucinewgame`), one thread, `--hash` MB.
Needs python-chess (`pip install chess`).
"""

import argparse
import json
import re
import shutil
import statistics
import sys

import chess
import chess.engine
import chess.pgn

# `+0.39/22 0.427s` or `-M5/30 0.1s`: a score in pawns (or a mate) and the depth.
COMMENT = re.compile(r"\s*([+-]?)(M?)(\d+(?:\.\d+)?)/(\d+)")
MATE_CP = 10000


def comment_score(comment):
    """The centipawns of a `score/depth` comment, the mover's view; None without one."""
    m = COMMENT.match(comment)
    if not m:
        return None
    sign = -1 if m.group(1) == "-" else 1
    if m.group(2):
        return sign * MATE_CP
    return sign * round(float(m.group(3)) * 100)


def critical_positions(pgn_path, ours, threshold, near):
    """(game number, ply, FEN, opponent's score, our last score) for each lost game."""
    found = []
    with open(pgn_path) as f:
        number = 0
        while (game := chess.pgn.read_game(f)) is not None:
            number += 1
            white, black = game.headers.get("White", ""), game.headers.get("Black", "")
            if ours not in (white, black):
                continue
            we_are_white = white == ours
            result = game.headers.get("Result")
            if result != ("0-1" if we_are_white else "1-0"):
                continue
            board = game.board()
            last_ours = None
            for ply, node in enumerate(game.mainline()):
                ours_to_move = board.turn == (chess.WHITE if we_are_white else chess.BLACK)
                board.push(node.move)
                score = comment_score(node.comment)
                if score is None:
                    continue
                if ours_to_move:
                    last_ours = score
                elif score >= threshold and last_ours is not None and abs(last_ours) <= near:
                    found.append((number, ply, board.fen(), score, last_ours))
                    break
    return found


def search(engine, fen, seconds):
    """The engine's score of `fen` after `seconds`, the side to move's view, centipawns."""
    info = engine.analyse(chess.Board(fen), chess.engine.Limit(time=seconds), game=object())
    return info["score"].relative.score(mate_score=MATE_CP)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--engine", default="target/release/rookling")
    ap.add_argument("--name", help="our engine's name in the PGN (default: the one not "
                    "named Stockfish)")
    ap.add_argument("--reference", help="default: stockfish on PATH, else /usr/games/stockfish")
    ap.add_argument("--threshold", type=int, default=150)
    ap.add_argument("--near", type=int, default=100)
    ap.add_argument("--times", default="0.2,2,8", help="seconds, comma-separated")
    ap.add_argument("--ref-time", type=float, default=2.0)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--json", help="write the positions and scores here")
    args = ap.parse_args()
    times = [float(t) for t in args.times.split(",")]

    name = args.name
    if name is None:
        with open(args.pgn) as f:
            game = chess.pgn.read_headers(f)
        if game is None:
            sys.exit(f"{args.pgn}: no game")
        names = [game.get("White", ""), game.get("Black", "")]
        others = [n for n in names if not n.lower().startswith("stockfish")]
        if len(others) != 1:
            sys.exit(f"which engine is ours of {names}? Say it with --name")
        name = others[0]
    positions = critical_positions(args.pgn, name, args.threshold, args.near)
    if not positions:
        sys.exit(f"no lost game of {name} with a critical position")

    reference = args.reference or shutil.which("stockfish") or "/usr/games/stockfish"
    ours = chess.engine.SimpleEngine.popen_uci(args.engine)
    ref = chess.engine.SimpleEngine.popen_uci(reference)
    for engine in (ours, ref):
        engine.configure({"Hash": args.hash, "Threads": 1})
    rows = []
    print(f"{name}: {len(positions)} lost games; scores from our side, centipawns")
    print("game  ply  opponent  ours-last  " + "  ".join(f"{t:>6g}s" for t in times)
          + f"  reference {args.ref_time:g}s")
    try:
        for number, ply, fen, opponent, last in positions:
            scores = [search(ours, fen, t) for t in times]
            truth = search(ref, fen, args.ref_time)
            rows.append({"game": number, "ply": ply, "fen": fen, "opponent": opponent,
                         "ours_last": last, "ours": scores, "reference": truth})
            print(f"{number:>4} {ply:>4} {opponent:>9} {last:>10}  "
                  + "  ".join(f"{s:>7}" for s in scores) + f"  {truth:>11}", flush=True)
    finally:
        ours.quit()
        ref.quit()

    print()
    for i, t in enumerate(times):
        column = [r["ours"][i] for r in rows]
        seen = sum(1 for s in column if s <= -args.near)
        print(f"ours at {t:g} s: median {statistics.median(column):.0f}, "
              f"{seen} of {len(rows)} at -{args.near} or below")
    column = [r["reference"] for r in rows]
    seen = sum(1 for s in column if s <= -args.near)
    print(f"reference at {args.ref_time:g} s: median {statistics.median(column):.0f}, "
          f"{seen} of {len(rows)} at -{args.near} or below")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
