#!/usr/bin/env python3
"""Play a match between two UCI engines: fastchess, else cutechess-cli, else python-chess.

By default Rookling (./target/release/rookling) plays Debian's Stockfish with
UCI_LimitStrength. Every opening (from --openings, an EPD or PGN file, or the built-in
balanced lines) is played twice, each engine taking each colour once. The standard
options reach every runner: time control, Hash, engine options, concurrency, SPRT bounds,
a PGN file. With fastchess or cutechess-cli the runner's own report is printed (score,
Elo, SPRT); the python-chess runner keeps the clocks itself and counts illegal moves,
time losses and crashes.

    python3 scripts/match.py --games 100 --tc 10+0.1 --elo 2400 --openings book.epd
    python3 scripts/match.py --opponent ./target/release/rookling --elo 0 \
        --option Threads=2 --opponent-option Threads=1 --tc 5+0.05 --games 100
    python3 scripts/match.py --make-openings 200 book.epd   # Stockfish-checked lines
"""

import argparse
import math
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

# Balanced opening lines (SAN), 4 to 8 plies each: the book when --openings is not given.
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


def uci_options(command):
    """The option names an engine declares (a `uci` handshake, no python-chess needed)."""
    try:
        proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    except OSError as e:
        sys.exit(f"match.py: cannot start {command}: {e}")
    names = set()
    try:
        proc.stdin.write("uci\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 10
        for line in proc.stdout:
            if line.startswith("option name "):
                names.add(line[len("option name "):].split(" type ")[0].strip())
            if line.strip() == "uciok" or time.monotonic() > deadline:
                break
        proc.stdin.write("quit\n")
        proc.stdin.flush()
    except (BrokenPipeError, OSError):
        pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
    if not names:
        sys.exit(f"match.py: {command} did not answer the uci handshake")
    return names


def parse_options(pairs):
    """['Threads=2', 'Move Overhead=100'] -> {'Threads': '2', 'Move Overhead': '100'}."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            sys.exit(f"match.py: option '{pair}' is not NAME=VALUE")
        options[name.strip()] = value.strip()
    return options


def engine_options(command, asked, name):
    """`asked` less the options the engine lacks (each skipped one is reported)."""
    known = uci_options(command)
    kept = {}
    for key, value in asked.items():
        if key in known:
            kept[key] = value
        else:
            print(f"match.py: {name} has no option '{key}'; not set", file=sys.stderr)
    return kept


def write_builtin_openings(path):
    """Writes the built-in lines as EPD (python-chess needed)."""
    import chess
    with open(path, "w") as f:
        for line in OPENINGS:
            board = chess.Board()
            for san in line.split():
                board.push_san(san)
            f.write(board.epd() + "\n")


def make_openings(count, path, stockfish, depth, margin, seed):
    """Writes `count` random openings (8 plies of random legal moves, then Stockfish's
    best reply twice), kept when Stockfish scores them within `margin` cp at `depth`."""
    import chess
    import chess.engine
    rng = random.Random(seed)
    engine = chess.engine.SimpleEngine.popen_uci(stockfish)
    kept, seen = 0, set()
    try:
        with open(path, "w") as f:
            while kept < count:
                board = chess.Board()
                for _ in range(8):
                    moves = list(board.legal_moves)
                    if not moves:
                        break
                    board.push(rng.choice(moves))
                if board.is_game_over():
                    continue
                for _ in range(2):
                    best = engine.play(board, chess.engine.Limit(depth=depth // 2)).move
                    if best is None:
                        break
                    board.push(best)
                if board.is_game_over() or board.epd() in seen:
                    continue
                info = engine.analyse(board, chess.engine.Limit(depth=depth))
                score = info["score"].white().score(mate_score=100000)
                if abs(score) <= margin:
                    seen.add(board.epd())
                    f.write(board.epd() + "\n")
                    kept += 1
    finally:
        engine.quit()
    print(f"{kept} openings within {margin} cp at depth {depth} written to {path}")


def find_runner(choice, fastchess, cutechess):
    """(kind, path): the runner asked for, or the first one installed."""
    found = {
        "fastchess": fastchess or os.environ.get("FASTCHESS") or shutil.which("fastchess"),
        "cutechess": cutechess or shutil.which("cutechess-cli"),
    }
    if choice in found:
        if not found[choice]:
            sys.exit(f"match.py: {choice} not found (give its path, see docs/playing.md)")
        return choice, found[choice]
    if choice == "python":
        return "python", None
    for kind in ("fastchess", "cutechess"):
        if found[kind]:
            return kind, found[kind]
    return "python", None


def runner_command(kind, path, engines, args, openings, fmt):
    """The fastchess / cutechess-cli command line (both take cutechess's options)."""
    cmd = [path]
    for name, command, options in engines:
        cmd += ["-engine", f"cmd={command}", f"name={name}"]
        if kind == "cutechess":
            cmd.append("proto=uci")
        cmd += [f"option.{k}={v}" for k, v in options.items()]
    cmd += ["-each", f"tc={args.tc}"]
    cmd += ["-openings", f"file={openings}", f"format={fmt}", "order=sequential"]
    if args.start:
        cmd.append(f"start={args.start // 2 + 1}")
    cmd += ["-rounds", str((args.games + 1) // 2), "-games", "2", "-repeat",
            "-concurrency", str(args.concurrency)]
    if args.sprt:
        cmd += ["-sprt"] + [f"{k}={v}" for k, v in zip(("elo0", "elo1", "alpha", "beta"),
                                                        args.sprt)]
    if args.pgn:
        cmd += ["-pgnout", f"file={args.pgn}" if kind == "fastchess" else args.pgn]
    if kind == "cutechess":
        cmd += ["-recover"]
    else:
        # fastchess saves its state as config.json in the working directory; keep it out
        # of the user's checkout.
        state = os.path.join(tempfile.gettempdir(), f"fastchess-{os.getpid()}.json")
        cmd += ["-config", f"outname={state}"]
    return cmd


def sprt_llr(wins, draws, losses, elo0, elo1):
    """Log-likelihood ratio of a trinomial GSPRT on logistic Elo (as cutechess-cli)."""
    n = wins + draws + losses
    if n == 0 or wins == 0 or losses == 0:
        return 0.0
    w, d = wins / n, draws / n
    score = w + d / 2
    var = (w + d / 4) - score ** 2
    if var <= 0:
        return 0.0
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    return (s1 - s0) * (2 * score - s0 - s1) / (2 * var / n)


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


def load_openings(path):
    """Starting positions (FENs) from an EPD file (one position a line) or a PGN file
    (each game's moves); the built-in lines when `path` is None."""
    import chess
    import chess.pgn
    fens = []
    if path is None:
        for line in OPENINGS:
            board = chess.Board()
            for san in line.split():
                board.push_san(san)
            fens.append(board.fen())
    elif path.lower().endswith(".pgn"):
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                fens.append(game.end().board().fen())
    else:
        with open(path) as f:
            for line in f:
                if line.strip():
                    board, _ = chess.Board.from_epd(line.strip())
                    fens.append(board.fen())
    if not fens:
        sys.exit(f"match.py: no openings in {path}")
    return fens


def play_game(engines, names, fen, first_white, tc, max_plies):
    """Plays one game from `fen`; engine 0 is White when `first_white`. Returns (points for
    engine 0, reason, loser index or None, pgn game)."""
    import chess
    import chess.engine
    import chess.pgn
    base, inc = tc
    board = chess.Board(fen)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    index = {chess.WHITE: 0 if first_white else 1, chess.BLACK: 1 if first_white else 0}
    game_id = object()
    reason, winner = None, None
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
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
            white_inc=inc, black_inc=inc)
        start = time.monotonic()
        try:
            result = engines[index[side]].play(board, limit, game=game_id)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            reason, winner = f"crash ({e})", not side
            break
        clocks[side] -= time.monotonic() - start
        if clocks[side] < 0:
            reason, winner = "time", not side
            break
        clocks[side] += inc
        if result.move is None or result.move not in board.legal_moves:
            reason, winner = f"illegal move {result.move}", not side
            break
        board.push(result.move)
    if winner is None:
        points, loser = 0.5, None
    else:
        points = 1.0 if index[winner] == 0 else 0.0
        loser = index[not winner]
    game = chess.pgn.Game.from_board(board)
    game.headers["White"] = names[index[chess.WHITE]]
    game.headers["Black"] = names[index[chess.BLACK]]
    game.headers["Termination"] = reason
    return points, reason, loser, game


def python_match(engines_spec, args, fens):
    """The python-chess runner: one game at a time, clocks kept from wall time."""
    import chess.engine

    def start(command, options):
        engine = chess.engine.SimpleEngine.popen_uci(shlex.split(command))
        engine.configure({k: v for k, v in options.items() if not engine.options[k].is_managed()})
        return engine

    names = [name for name, _, _ in engines_spec]
    engines = [start(command, options) for _, command, options in engines_spec]
    tc = parse_tc(args.tc)
    tally = Tally()
    faults = [{"illegal": 0, "time": 0, "crash": 0} for _ in engines]
    pgn_out = open(args.pgn, "a") if args.pgn else None
    bounds = None
    if args.sprt:
        elo0, elo1, alpha, beta = args.sprt
        bounds = (math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))
    try:
        for i in range(args.start, args.start + args.games):
            fen = fens[(i // 2) % len(fens)]
            first_white = i % 2 == 0
            points, reason, loser, game = play_game(engines, names, fen, first_white, tc,
                                                    args.max_plies)
            if loser is not None:
                for kind in faults[loser]:
                    if reason.startswith(kind):
                        faults[loser][kind] += 1
                if reason.startswith("crash"):
                    engines[loser].close()
                    engines[loser] = start(engines_spec[loser][1], engines_spec[loser][2])
            tally.wins += points == 1.0
            tally.draws += points == 0.5
            tally.losses += points == 0.0
            colour = "white" if first_white else "black"
            print(f"game {i + 1}: {names[0]} ({colour}) {points} by {reason} [{fen}] "
                  f"-> +{tally.wins} ={tally.draws} -{tally.losses} "
                  f"({100 * tally.score():.1f}%)", flush=True)
            if pgn_out:
                print(game, file=pgn_out, end="\n\n", flush=True)
            if bounds:
                llr = sprt_llr(tally.wins, tally.draws, tally.losses, elo0, elo1)
                if not bounds[0] < llr < bounds[1]:
                    verdict = "H1 accepted" if llr >= bounds[1] else "H0 accepted"
                    print(f"SPRT [{elo0}, {elo1}]: LLR {llr:.2f} {bounds}: {verdict}")
                    break
    finally:
        for engine in engines:
            engine.quit()
    elo, low, high = tally.elo()
    print(f"\n{names[0]} vs {names[1]}, {args.tc}, {tally.games} games")
    print(f"W/D/L: {tally.wins}/{tally.draws}/{tally.losses}  score {100 * tally.score():.1f}%"
          f"  Elo {elo:+.0f} (95%: {low:+.0f} to {high:+.0f})")
    for name, f in zip(names, faults):
        print(f"{name}: illegal moves {f['illegal']}, time losses {f['time']}, "
              f"crashes {f['crash']}")


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--engine", default="./target/release/rookling", help="engine 1")
    ap.add_argument("--name", default="Rookling")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a UCI option of engine 1 (repeatable)")
    stockfish = shutil.which("stockfish") or "/usr/games/stockfish"
    ap.add_argument("--opponent", default=stockfish, help="engine 2 (default: Stockfish)")
    ap.add_argument("--opponent-name", default=None)
    ap.add_argument("--opponent-option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--elo", type=int, default=1800,
                    help="engine 2's UCI_Elo with UCI_LimitStrength (0: no limit)")
    ap.add_argument("--opponent-overhead", type=int, default=None,
                    help="engine 2's Move Overhead, ms (default: 100 for the default "
                         "Stockfish, whose 10 ms loses on time on a loaded machine, which "
                         "would flatter engine 1; not set for another opponent)")
    ap.add_argument("--hash", type=int, default=64, help="Hash (MB) of both engines")
    ap.add_argument("--openings", default=None, help="EPD or PGN file (default: built-in)")
    ap.add_argument("--games", type=int, default=100, help="rounded up to an even number")
    ap.add_argument("--start", type=int, default=0, help="first game index (python runner)")
    ap.add_argument("--tc", default="10+0.1", help="base+increment, seconds")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--sprt", default=None, metavar="ELO0,ELO1[,ALPHA,BETA]",
                    help="stop when the SPRT decides (alpha and beta default to 0.05)")
    ap.add_argument("--pgn", default=None, help="write the games to this file")
    ap.add_argument("--max-plies", type=int, default=400, help="python runner: draw after")
    ap.add_argument("--runner", choices=["auto", "fastchess", "cutechess", "python"],
                    default="auto")
    ap.add_argument("--fastchess", default=None, help="path (else $FASTCHESS or PATH)")
    ap.add_argument("--cutechess", default=None, help="path (else PATH)")
    ap.add_argument("--dry-run", action="store_true", help="print the runner's command")
    ap.add_argument("--write-openings", metavar="FILE",
                    help="write the built-in lines as EPD and exit")
    ap.add_argument("--make-openings", nargs=2, metavar=("COUNT", "FILE"),
                    help="write COUNT random openings Stockfish scores near 0, and exit")
    ap.add_argument("--margin", type=int, default=50, help="--make-openings: |cp| at most")
    ap.add_argument("--depth", type=int, default=12, help="--make-openings: Stockfish depth")
    ap.add_argument("--seed", type=int, default=None, help="--make-openings: random seed")
    args = ap.parse_args()

    if args.write_openings:
        write_builtin_openings(args.write_openings)
        return
    if args.make_openings:
        make_openings(int(args.make_openings[0]), args.make_openings[1], stockfish,
                      args.depth, args.margin, args.seed)
        return
    args.games += args.games % 2
    if args.sprt:
        parts = [float(x) for x in args.sprt.split(",")]
        if len(parts) not in (2, 4):
            sys.exit("match.py: --sprt takes ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA")
        args.sprt = parts + [0.05, 0.05] if len(parts) == 2 else parts

    asked1 = {"Hash": str(args.hash)}
    asked1.update(parse_options(args.option))
    asked2 = {"Hash": str(args.hash), "Threads": "1"}
    if args.opponent_overhead is None and args.opponent == stockfish:
        args.opponent_overhead = 100
    if args.opponent_overhead is not None:
        asked2["Move Overhead"] = str(args.opponent_overhead)
    if args.elo:
        asked2.update({"UCI_LimitStrength": "true", "UCI_Elo": str(args.elo)})
    asked2.update(parse_options(args.opponent_option))
    name2 = args.opponent_name or (
        f"Stockfish-{args.elo}" if "stockfish" in args.opponent.lower() and args.elo
        else os.path.basename(args.opponent.split()[0]) + "-2")
    engines = [
        (args.name, args.engine, engine_options(args.engine, asked1, args.name)),
        (name2, args.opponent, engine_options(args.opponent, asked2, name2)),
    ]

    kind, path = find_runner(args.runner, args.fastchess, args.cutechess)
    if kind == "python":
        print("match.py: python-chess runner (no fastchess or cutechess-cli found)",
              file=sys.stderr)
        python_match(engines, args, load_openings(args.openings))
        return
    openings, fmt = args.openings, "epd"
    temp = None
    if openings is None:
        temp = tempfile.NamedTemporaryFile("w", suffix=".epd", delete=False)
        temp.close()
        write_builtin_openings(temp.name)
        openings = temp.name
    elif openings.lower().endswith(".pgn"):
        fmt = "pgn"
    cmd = runner_command(kind, path, engines, args, openings, fmt)
    print(" ".join(f"'{c}'" if " " in c else c for c in cmd), flush=True)
    if args.dry_run:
        return
    try:
        status = subprocess.call(cmd)
    finally:
        if temp:
            os.unlink(temp.name)
    sys.exit(status)


if __name__ == "__main__":
    main()
