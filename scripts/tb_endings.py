#!/usr/bin/env python3
"""Play won endings out against Stockfish, both engines using the same Syzygy tables.

For each material (KBNvK, KQvKR, KRvKB by default) random positions the tables call won
for the side to move are drawn; Rookling takes that side, Stockfish 15.1 (full strength,
with the same SyzygyPath) the other, and the game is played out. It counts as converted
when Rookling mates, or its captures reach a position it mates in, before the fifty-move
rule (or a threefold repetition, stalemate or dead material) ends it. With --without,
each position is played again with Rookling given no tables, for comparison.

Needs python-chess (`pip install chess`): it draws the positions (its own Syzygy prober
picks the won ones), keeps the board and the rules, and drives both engines over UCI.

    python3 scripts/tb_endings.py --tables tests/data/syzygy --positions 20 --without

With --write-openings COUNT FILE it writes instead an EPD book of endgame openings for a
match with and without tables (docs/playing.md): random legal positions of five and six
pieces (--opening-materials), a capture away from the tables, kept when Stockfish
(depth 10, no tables) scores them within --margin centipawns, so that neither side
starts with an easy win.

    python3 scripts/tb_endings.py --write-openings 100 endgames.epd --seed 32

With --write-tb-openings COUNT FILE it writes an EPD book of positions of --materials
that the tables decide: won positions far from the next capture or pawn move, and quiet
drawn ones. In a match with and without tables each is played from both sides, so the
engine with tables gets the chance to convert every win and to hold every draw that the
other might not (the book docs/playing.md measures the gain with):

    python3 scripts/tb_endings.py --tables DIR --write-tb-openings 60 tb-openings.epd \
        --materials KQvKR,KBNvK,KRvKB,KRBvKR,KBBvKN,KRNvKR --seed 32
"""

import argparse
import os
import random
import sys

try:
    import chess
    import chess.engine
    import chess.syzygy
except ImportError:
    sys.exit("this script needs python-chess: pip install chess")


def open_tables(path):
    """python-chess's prober on the directories of `path` (a SyzygyPath: separated by
    ':', ';' on Windows)."""
    tables = chess.syzygy.Tablebase()
    for directory in filter(None, path.split(os.pathsep)):
        tables.add_directory(directory)
    return tables


def random_won(material, tables, rng, min_dtz):
    """A random legal position of `material` (e.g. "KQvKR") the tables call won for the
    side to move, at least `min_dtz` plies from the next capture, pawn move or mate, the
    half-move clock 0."""
    while True:
        board = random_position(material, rng)
        if tables.probe_wdl(board) == 2 and tables.probe_dtz(board) >= min_dtz:
            return board


def random_position(material, rng, playable=lambda board: not board.is_game_over()):
    """A random legal position of `material` (e.g. "KRPvKR": the first side's pieces, then
    the second's), either side to move, the colours either way round, for which
    `playable(board)` holds (by default: the game is not over)."""
    first, second = material.split("v")
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, len(first) + len(second))
        ok = True
        for color, side in ((chess.WHITE, first), (chess.BLACK, second)):
            for letter in side:
                sq = squares.pop()
                piece = chess.Piece.from_symbol(letter if color else letter.lower())
                if piece.piece_type == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    ok = False
                board.set_piece_at(sq, piece)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if rng.random() < 0.5:
            board = board.mirror()
        if ok and board.is_valid() and playable(board):
            return board


def write_openings(count, path, materials, margin, stockfish_path, rng):
    """Writes `count` balanced random endgames of `materials` to `path` (EPD)."""
    stockfish = chess.engine.SimpleEngine.popen_uci(stockfish_path)
    kept = 0
    try:
        with open(path, "w") as out:
            while kept < count:
                board = random_position(rng.choice(materials), rng)
                info = stockfish.analyse(board, chess.engine.Limit(depth=10))
                score = info["score"].relative
                if score.is_mate() or abs(score.score()) > margin:
                    continue
                out.write(board.epd() + "\n")
                kept += 1
    finally:
        stockfish.quit()


def write_tb_openings(count, path, materials, tables, min_dtz, rng):
    """Writes `count` openings of `materials` (in turn) to `path` (EPD) where the tables
    decide the game: two in three are positions the tables call won for one side, at
    least `min_dtz` plies from the next capture, pawn move or mate (so the win must be
    found), the others quiet drawn positions, no capture legal for either side (so the
    draw must be held; a won one where the material has hardly any such draw)."""
    with open(path, "w") as out:
        for i in range(count):
            material = materials[i % len(materials)]
            tries = 0
            while True:
                board = random_position(material, rng)
                wdl = tables.probe_wdl(board)
                tries += 1
                want_draw = (i // len(materials)) % 3 == 2 and tries < 20000
                if wdl in (-2, 2) and abs(tables.probe_dtz(board)) >= min_dtz:
                    if not want_draw:
                        break
                elif want_draw and wdl == 0 and not any(board.generate_legal_captures()):
                    board.push(chess.Move.null())
                    quiet = not board.is_check() and not any(board.generate_legal_captures())
                    board.pop()
                    if quiet:
                        break
            out.write(board.epd() + "\n")


def game_over(board):
    """How the game on `board` has ended (python-chess's Outcome), or None. As
    fastchess and cutechess end games: a threefold repetition once the position stands
    for the third time, the fifty-move rule at a half-move clock of 100 (unless the
    move mates). Not python-chess's `claim_draw`, which also ends the game when the
    side to move could claim with a move it has not played, even the winning side."""
    outcome = board.outcome()
    if outcome is not None:
        return outcome
    if board.is_repetition(3):
        return chess.Outcome(chess.Termination.THREEFOLD_REPETITION, None)
    if board.is_fifty_moves():
        return chess.Outcome(chess.Termination.FIFTY_MOVES, None)
    return None


def play(board, rookling, stockfish, movetime, game):
    """Plays `board` out, Rookling to move first, as game `game` (a new one for both
    engines: `ucinewgame`); 'won' or why not, and the plies."""
    side = board.turn
    limit = chess.engine.Limit(time=movetime)
    plies = 0
    while True:
        outcome = game_over(board)
        if outcome is not None:
            won = outcome.winner == side
            return ("won" if won else outcome.termination.name.lower()), plies
        engine = rookling if board.turn == side else stockfish
        result = engine.play(board, limit, game=game)
        board.push(result.move)
        plies += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", help="the Syzygy tables' directory")
    parser.add_argument("--materials", default="KBNvK,KQvKR,KRvKB")
    parser.add_argument("--positions", type=int, default=10, help="per material")
    parser.add_argument("--min-dtz", type=int, default=20,
                        help="least distance to zeroing, plies (trivial wins left out)")
    parser.add_argument("--movetime", type=float, default=0.1, help="seconds per move")
    parser.add_argument("--rookling", default="./target/release/rookling")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--without", action="store_true",
                        help="also play each position with Rookling given no tables")
    parser.add_argument("--write-openings", nargs=2, metavar=("COUNT", "FILE"),
                        help="write an EPD book of balanced 5- and 6-piece endgames instead")
    parser.add_argument("--opening-materials",
                        default="KRPvKR,KRvKBP,KRvKNP,KBPvKB,KBPvKN,KNPvKN,KQvKRP,KRBvKR,"
                                "KRNvKR,KPPvKP,KRPvKRP,KBPvKBP,KNPvKBP,KQPvKQ,KPPvKPP")
    parser.add_argument("--margin", type=int, default=150,
                        help="largest |score| of a book position, centipawns")
    parser.add_argument("--write-tb-openings", nargs=2, metavar=("COUNT", "FILE"),
                        help="write an EPD book of --materials positions the tables decide "
                             "(won ones at least --min-dtz plies from zeroing, quiet draws)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    if args.write_tb_openings:
        if args.tables is None:
            parser.error("--tables is needed to write tablebase openings")
        count, path = args.write_tb_openings
        tables = open_tables(args.tables)
        write_tb_openings(int(count), path, args.materials.split(","), tables,
                          args.min_dtz, rng)
        return
    if args.write_openings:
        count, path = args.write_openings
        materials = args.opening_materials.split(",")
        write_openings(int(count), path, materials, args.margin, args.stockfish, rng)
        return
    if args.tables is None:
        parser.error("--tables is needed to play endings")
    tables = open_tables(args.tables)
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    stockfish.configure({"SyzygyPath": args.tables, "Hash": 64})
    runs = [("with tables", args.tables)]
    if args.without:
        runs.append(("without tables", "<empty>"))
    engines = {}
    for name, path in runs:
        engines[name] = chess.engine.SimpleEngine.popen_uci(args.rookling)
        engines[name].configure({"SyzygyPath": path, "Hash": 64})
    totals = {name: [0, 0] for name, _ in runs}
    try:
        for material in args.materials.split(","):
            for i in range(args.positions):
                start = random_won(material, tables, rng, args.min_dtz)
                dtz = tables.probe_dtz(start)
                row = [material, str(i + 1), start.fen(), f"dtz {dtz}"]
                for name, _ in runs:
                    game = (material, i, name)
                    verdict, plies = play(start.copy(), engines[name], stockfish, args.movetime, game)
                    totals[name][0] += verdict == "won"
                    totals[name][1] += 1
                    row.append(f"{name}: {verdict} in {plies} plies")
                print(" | ".join(row), flush=True)
    finally:
        stockfish.quit()
        for engine in engines.values():
            engine.quit()
    for name, (won, played) in totals.items():
        print(f"Rookling {name}: {won} of {played} won positions converted")


if __name__ == "__main__":
    main()
