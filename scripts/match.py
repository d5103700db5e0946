#!/usr/bin/env python3
"""Play Rookling against Stockfish with UCI_LimitStrength (run by hand, not in CI).

Each opening of a built-in list of balanced lines is played twice, Rookling taking each
colour once. Clocks are kept here from wall time: a side whose clock runs out loses on
time. Counts wins, draws, losses, illegal moves, time losses and crashes, and prints a
score with an Elo estimate (95% interval).

    python3 scripts/match.py --games 40 --tc 10+0.1
"""

import argparse
import math
import sys
import time

import chess
import chess.engine
import chess.pgn

# Balanced opening lines (SAN), 4 to 8 plies each.
OPENINGS = [
    "e4 e5 Nf3 Nc6 Bb5 a6",
    "e4 e5 Nf3 Nc6 Bc4 Bc5",
    "e4 e5 Nf3 Nc6 d4 exd4 Nxd4",
    "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4",
    "e4 e5 Nc3 Nf6 f4 d5",
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6",
    "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 g6",
    "e4 c5 Nf3 e6 d4 cxd4 Nxd4 a6",
    "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7",
    "e4 c5 c3 Nf6 e5 Nd5 d4 cxd4",
    "e4 e6 d4 d5 Nc3 Bb4 e5 c5",
    "e4 e6 d4 d5 Nd2 c5 exd5 exd5",
    "e4 e6 d4 d5 e5 c5 c3 Nc6",
    "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5",
    "e4 c6 d4 d5 e5 Bf5 Nf3 e6",
    "e4 d6 d4 Nf6 Nc3 g6 f4 Bg7",
    "e4 g6 d4 Bg7 Nc3 d6 Be3 a6",
    "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6",
    "e4 Nf6 e5 Nd5 d4 d6 Nf3 g6",
    "e4 e5 Nf3 d6 d4 exd4 Nxd4 Nf6",
    "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7",
    "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4",
    "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6",
    "d4 d5 c4 c6 Nc3 Nf6 e3 e6",
    "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O",
    "d4 Nf6 c4 e6 Nf3 b6 g3 Ba6",
    "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6",
    "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5",
    "d4 Nf6 c4 c5 d5 e6 Nc3 exd5",
    "d4 Nf6 c4 e6 g3 d5 Bg2 Be7",
    "d4 d5 Nf3 Nf6 Bf4 e6 e3 c5",
    "d4 f5 g3 Nf6 Bg2 g6 Nf3 Bg7",
    "d4 Nf6 Nf3 e6 Bg5 c5 e3 h6",
    "d4 d5 Bf4 Nf6 e3 c5 c3 Nc6",
    "d4 e6 c4 b6 Nc3 Bb7 e4 Bb4",
    "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5",
    "c4 c5 Nf3 Nf6 Nc3 Nc6 g3 g6",
    "c4 Nf6 Nc3 e6 e4 d5 e5 d4",
    "c4 e6 Nf3 d5 g3 Nf6 Bg2 Be7",
    "c4 g6 Nc3 Bg7 g3 c5 Bg2 Nc6",
    "Nf3 d5 g3 Nf6 Bg2 c6 O-O Bg4",
    "Nf3 Nf6 c4 b6 g3 Bb7 Bg2 e6",
    "Nf3 c5 c4 Nc6 Nc3 e5 g3 g6",
    "g3 d5 Bg2 Nf6 Nf3 c6 O-O Bg4",
    "b3 e5 Bb2 Nc6 e3 Nf6 Bb5 d6",
    "e4 e5 f4 exf4 Nf3 d6 d4 g5",
    "e4 e5 Nf3 Nc6 c3 Nf6 d4 Nxe4",
    "e4 c5 d4 cxd4 c3 dxc3 Nxc3 Nc6",
    "d4 Nf6 c4 c5 d5 b5 cxb5 a6",
    "e4 e5 Nf3 Nc6 Nc3 Nf6 Bb5 Bb4",
]


def parse_tc(tc):
    """'10+0.1' -> (10.0, 0.1) seconds."""
    base, _, inc = tc.partition("+")
    return float(base), float(inc or 0)


def opening_board(line):
    board = chess.Board()
    for san in line.split():
        board.push_san(san)
    return board


class Tally:
    def __init__(self):
        self.wins = self.draws = self.losses = 0
        self.illegal = self.time_losses = self.crashes = 0

    @property
    def games(self):
        return self.wins + self.draws + self.losses

    def score(self):
        return (self.wins + 0.5 * self.draws) / max(self.games, 1)

    def elo(self):
        """Elo difference and its 95% interval (from the per-game score spread)."""
        n = self.games

        def to_elo(x):
            if x <= 0:
                return -math.inf
            if x >= 1:
                return math.inf
            return -400 * math.log10(1 / x - 1)

        if n == 0:
            return 0.0, -math.inf, math.inf
        p = self.score()
        var = (self.wins * (1 - p) ** 2 + self.draws * (0.5 - p) ** 2
               + self.losses * p ** 2) / n
        half = 1.96 * math.sqrt(var / n)
        return to_elo(p), to_elo(p - half), to_elo(p + half)


def play_game(rookling, stockfish, opening, rookling_white, tc, max_plies, log):
    """Plays one game; returns (result for Rookling in {1, 0.5, 0}, reason, pgn game)."""
    base, inc = tc
    board = opening_board(opening)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    engines = {
        chess.WHITE: rookling if rookling_white else stockfish,
        chess.BLACK: stockfish if rookling_white else rookling,
    }
    game_id = object()
    reason = None
    winner = None
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            winner = outcome.winner
            reason = outcome.termination.name.lower()
            break
        if board.ply() >= max_plies:
            reason = "max plies"
            break
        side = board.turn
        engine = engines[side]
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
            white_inc=inc, black_inc=inc)
        start = time.monotonic()
        try:
            result = engine.play(board, limit, game=game_id)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            reason = f"crash ({e})"
            winner = not side
            break
        spent = time.monotonic() - start
        clocks[side] -= spent
        if clocks[side] < 0:
            reason = "time"
            winner = not side
            break
        clocks[side] += inc
        if result.move is None or result.move not in board.legal_moves:
            reason = f"illegal move {result.move}"
            winner = not side
            break
        board.push(result.move)
    rookling_color = chess.WHITE if rookling_white else chess.BLACK
    if winner is None:
        points = 0.5
    else:
        points = 1.0 if winner == rookling_color else 0.0
    game = chess.pgn.Game.from_board(board)
    game.headers["White"] = "Rookling" if rookling_white else "Stockfish"
    game.headers["Black"] = "Stockfish" if rookling_white else "Rookling"
    game.headers["Termination"] = reason
    return points, reason, game


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="./target/release/rookling")
    ap.add_argument("--stockfish", default="/usr/games/stockfish",
                    help="the opponent (options it lacks are skipped)")
    ap.add_argument("--elo", type=int, default=1800, help="Stockfish's UCI_Elo")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--tc", default="10+0.1", help="base+increment, seconds")
    ap.add_argument("--hash", type=int, default=64, help="Rookling's Hash (MB)")
    ap.add_argument("--overhead", type=int, default=None,
                    help="Rookling's Move Overhead (ms), if it has the option")
    ap.add_argument("--sf-overhead", type=int, default=100,
                    help="Stockfish's Move Overhead (ms)")
    ap.add_argument("--max-plies", type=int, default=400,
                    help="a game this long is scored a draw")
    ap.add_argument("--pgn", default=None, help="append the games to this file")
    ap.add_argument("--start", type=int, default=0, help="first game index")
    args = ap.parse_args()

    tc = parse_tc(args.tc)
    for line in OPENINGS:
        opening_board(line)  # every line must be legal

    rookling = chess.engine.SimpleEngine.popen_uci(args.engine)
    rookling_options = {"Hash": args.hash}
    if args.overhead is not None:
        rookling_options["Move Overhead"] = args.overhead
    rookling.configure({k: v for k, v in rookling_options.items() if k in rookling.options})
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    # Stockfish keeps 100 ms per move in reserve: on a loaded machine its default 10 ms
    # lets it lose on time, which would flatter Rookling.
    sf_options = {"UCI_LimitStrength": True, "UCI_Elo": args.elo, "Threads": 1,
                  "Hash": 16, "Move Overhead": args.sf_overhead}
    # Only the options the opponent has (another engine may stand in for Stockfish).
    stockfish.configure({k: v for k, v in sf_options.items() if k in stockfish.options})
    tally = Tally()
    pgn_out = open(args.pgn, "a") if args.pgn else None
    try:
        for i in range(args.start, args.start + args.games):
            opening = OPENINGS[(i // 2) % len(OPENINGS)]
            rookling_white = i % 2 == 0
            try:
                points, reason, game = play_game(rookling, stockfish, opening, rookling_white,
                                                 tc, args.max_plies, sys.stderr)
            except chess.engine.EngineTerminatedError as e:
                points, reason, game = 0.0, f"crash ({e})", None
            if reason.startswith("crash"):
                tally.crashes += 1
                rookling.close()
                rookling = chess.engine.SimpleEngine.popen_uci(args.engine)
                rookling.configure({k: v for k, v in rookling_options.items()
                                    if k in rookling.options})
            elif reason == "time":
                tally.time_losses += points == 0.0
            elif reason.startswith("illegal"):
                tally.illegal += points == 0.0
            if points == 1.0:
                tally.wins += 1
            elif points == 0.5:
                tally.draws += 1
            else:
                tally.losses += 1
            colour = "white" if rookling_white else "black"
            print(f"game {i + 1}: Rookling ({colour}) {points} by {reason} [{opening}] "
                  f"-> +{tally.wins} ={tally.draws} -{tally.losses} "
                  f"({100 * tally.score():.1f}%)", flush=True)
            if pgn_out and game is not None:
                print(game, file=pgn_out, end="\n\n", flush=True)
    finally:
        rookling.quit()
        stockfish.quit()
    elo, low, high = tally.elo()
    print(f"\nRookling vs Stockfish (UCI_Elo {args.elo}), {args.tc}, {tally.games} games")
    print(f"W/D/L: {tally.wins}/{tally.draws}/{tally.losses}  score {100 * tally.score():.1f}%"
          f"  Elo {elo:+.0f} (95%: {low:+.0f} to {high:+.0f}) relative to the limited Stockfish")
    print(f"illegal moves: {tally.illegal}  time losses: {tally.time_losses}  "
          f"crashes: {tally.crashes}")


if __name__ == "__main__":
    main()
