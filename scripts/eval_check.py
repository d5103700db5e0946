#!/usr/bin/env python3
"""How close networks' static evaluations come to Stockfish's search, over UCI.

A self-play match says which of two networks plays better against the other; it does
not say whether either judges positions better. This script asks a third party: for
each position it takes Stockfish's score after a search of `--depth` plies (the
reference, cached in a JSON file so that later runs are instant) and each network's
static evaluation (Rookling's `eval` command, the network loaded with `EvalFile`), both
from White's view, and prints for each network:

- `pearson`: the correlation of the two scores, each clipped to +-2000 cp;
- `mse`: the mean squared error of the win expectancies `1 / (1 + exp(-cp / 400))`;
- `fitted`: the same with the network's scores multiplied by the factor (0.50 to 2.00,
  in steps of 0.05) that fits best, and that factor (`x`); a network that judges the
  same but on a larger scale than Stockfish fits at a factor below 1;
- `vs first`: its per-position fitted error minus the first network's, the mean and
  its standard error (negative: closer to Stockfish than the first network).

Positions are `rookling data show` lines (`FEN | SCORE | RESULT`) or plain FENs, one a
line; `--every N` keeps every Nth (from `--offset`). Use positions no network named was
trained on (a data file's records after the ones a network was trained on, or another
seed's).

    rookling data show gen.bin --skip 20000000 --count 2000000 > held-out.txt
    python3 scripts/eval_check.py held-out.txt --every 1000 --depth 12 \\
        --cache sf-d12.json builtin old.nnue new.nnue

`builtin` is the network built into `--engine` (default `target/release/rookling`).
Stockfish is `--stockfish` (default: `stockfish` on PATH, else `/usr/games/stockfish`).
Needs nothing beyond Python 3.
"""

import argparse
import json
import math
import os
import shutil
import sys

from uci_engine import Engine


def stockfish_path(given):
    if given:
        return given
    return shutil.which("stockfish") or "/usr/games/stockfish"


def white(fen, score):
    return score if fen.split()[1] == "w" else -score


def stockfish_scores(path, fens, depth, cache_file):
    """Stockfish's score after `go depth` of each FEN, White's view (mates as +-10000)."""
    cache = {}
    if cache_file and os.path.exists(cache_file):
        with open(cache_file) as f:
            cache = json.load(f)
    missing = [fen for fen in fens if f"{depth} {fen}" not in cache]
    if missing:
        sf = Engine(path)
        sf.send("setoption name Hash value 64")
        for i, fen in enumerate(missing):
            sf.send("ucinewgame")
            sf.send(f"position fen {fen}")
            sf.send(f"go depth {depth}")
            score = None
            for line in sf.read_until("bestmove", timeout=None):
                words = line.split()
                if "score" in words:
                    k = words.index("score")
                    kind, value = words[k + 1], int(words[k + 2])
                    score = value if kind == "cp" else math.copysign(10000, value)
            if score is None:
                sys.exit(f"Stockfish gave no score for {fen}")
            cache[f"{depth} {fen}"] = white(fen, int(score))
            if (i + 1) % 200 == 0:
                print(f"Stockfish: {i + 1} of {len(missing)}", file=sys.stderr)
        sf.quit()
        if cache_file:
            with open(cache_file, "w") as f:
                json.dump(cache, f)
    return [cache[f"{depth} {fen}"] for fen in fens]


def network_scores(engine, net, fens):
    """The static evaluation (`eval`'s final line) of each FEN with `net`, White's view."""
    rookling = Engine(engine)
    if net != "builtin":
        rookling.send(f"setoption name EvalFile value {os.path.abspath(net)}")
    scores = []
    for fen in fens:
        rookling.send(f"position fen {fen}")
        rookling.send("eval")
        lines = rookling.read_until("Final evaluation", timeout=None)
        refused = [line for line in lines if line.startswith("info string error")]
        if refused:
            sys.exit(f"{net}: {refused[0]}")
        # "Final evaluation: white +13 cp, side to move -13 cp"
        scores.append(int(lines[-1].split()[3]))
    rookling.quit()
    return scores


def expectancy(cp):
    return 1.0 / (1.0 + math.exp(-cp / 400.0))


def clip(cp):
    return max(-2000, min(2000, cp))


def pearson(a, b):
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    va = sum((x - ma) ** 2 for x in a)
    vb = sum((y - mb) ** 2 for y in b)
    return cov / math.sqrt(va * vb)


def errors(net, ref, factor):
    return [(expectancy(clip(x * factor)) - expectancy(clip(y))) ** 2 for x, y in zip(net, ref)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("positions", help="`data show` lines or FENs, one a line")
    ap.add_argument("networks", nargs="+", help="network files, or `builtin`")
    ap.add_argument("--engine", default="target/release/rookling", help="Rookling's binary")
    ap.add_argument("--stockfish", default=None, help="default: on PATH, else /usr/games")
    ap.add_argument("--depth", type=int, default=12, help="Stockfish's search depth")
    ap.add_argument("--every", type=int, default=1, help="keep every Nth position")
    ap.add_argument("--offset", type=int, default=0, help="the first position kept")
    ap.add_argument("--cache", default=None, help="JSON file of Stockfish's scores")
    args = ap.parse_args()
    if args.every < 1 or args.offset < 0 or args.depth < 1:
        sys.exit("--every and --depth must be at least 1, --offset at least 0")

    with open(args.positions) as f:
        lines = [line.split("|")[0].strip() for line in f if line.strip()]
    fens = lines[args.offset::args.every]
    if len(fens) < 10:
        sys.exit(f"{len(fens)} positions: too few to compare")
    ref = stockfish_scores(stockfish_path(args.stockfish), fens, args.depth, args.cache)
    print(f"{len(fens)} positions, Stockfish depth {args.depth}")
    first = None
    for net in args.networks:
        scores = network_scores(args.engine, net, fens)
        raw = sum(errors(scores, ref, 1.0)) / len(fens)
        fits = [(errors(scores, ref, f), f) for f in (0.5 + 0.05 * i for i in range(31))]
        own, factor = min(fits, key=lambda fit: sum(fit[0]))
        fitted = sum(own) / len(fens)
        line = (f"{net}: pearson {pearson([clip(s) for s in scores], [clip(r) for r in ref]):.4f}"
                f"  mse {raw:.5f}  fitted {fitted:.5f} at x{factor:.2f}")
        if first is None:
            first = own
        else:
            d = [a - b for a, b in zip(own, first)]
            mean = sum(d) / len(d)
            sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1))
            line += f"  vs first {mean:+.5f} +/- {sd / math.sqrt(len(d)):.5f}"
        print(line, flush=True)


if __name__ == "__main__":
    try:
        main()
    except RuntimeError as e:
        sys.exit(str(e))
