#!/usr/bin/env python3
"""Tune Rookling's search parameters with SPSA through fastchess games (stdlib only).

Each iteration perturbs every parameter by +-c_k (a random sign per parameter), plays
game pairs between the two sides (theta+ and theta-, each opening once with each colour)
with fastchess, and moves theta towards the side that scored more:

    theta += R_k * c_k * (wins - losses) * sign        (R_k = a_k / c_k^2)

with OpenBench's schedule, set per parameter from its c_end and r_end (the values it has
at the last iteration): c_k = c / (k + 1)^gamma, a_k = a / (A + k + 1)^alpha, where
c = c_end * N^gamma and a = r_end * c_end^2 * (A + N)^alpha, N the planned iterations,
alpha = 0.602, gamma = 0.101, A = N / 10. theta is kept as a real number clamped to each
parameter's range; engines get it rounded to an integer.

The parameters come from the engine itself (`ENGINE params` prints OpenBench's SPSA
input: `name, int, default, min, max, c_end, r_end`) or from such a file (--params). The
engine must be a tuning build (`cargo build --release --features tune`), which takes each
parameter as a UCI option. Everything is saved after each iteration in a JSON state file;
run the same command again to resume. A log (state file + `.log`) gets one line of
theta per iteration.

    python3 scripts/spsa.py --engine /path/rookling-tune --openings book.epd \\
        --state /work/scratch/spsa/run1.json --iterations 600 --pairs 4 --nodes 20000
    python3 scripts/spsa.py --state /work/scratch/spsa/run1.json --print   # tuned values
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ALPHA, GAMMA = 0.602, 0.101
# Terminations that mean a broken game rather than a chess result (fastchess's words).
FAULTS = ("illegal move", "time forfeit", "abandoned", "stalled connection", "disconnect")


def die(message):
    sys.exit(f"spsa.py: {message}")


def parse_spsa_lines(text):
    """OpenBench SPSA input -> {name: {default, min, max, c_end, r_end}} (file order)."""
    params = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            die(f"line {number} is not 'name, int, default, min, max, c_end, r_end': {line}")
        try:
            default, low, high = (float(f) for f in fields[2:5])
            c_end, r_end = float(fields[5]), float(fields[6])
        except ValueError:
            die(f"line {number} has a field that is not a number: {line}")
        if not low <= default <= high or c_end <= 0 or r_end <= 0:
            die(f"line {number}: needs min <= default <= max and c_end, r_end > 0: {line}")
        params[fields[0]] = dict(default=default, min=low, max=high, c_end=c_end, r_end=r_end)
    if not params:
        die("no parameters")
    return params


def engine_params(engine):
    """The SPSA lines `ENGINE params` prints."""
    try:
        out = subprocess.run([engine, "params"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        die(f"cannot run '{engine} params': {e}")
    if out.returncode != 0:
        die(f"'{engine} params' failed: {out.stderr.strip()}")
    return out.stdout


def read_openings(path):
    """The EPD lines of the book (blank lines and comments skipped)."""
    try:
        with open(path) as f:
            lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    except OSError as e:
        die(f"cannot read openings {path}: {e}")
    if not lines:
        die(f"no openings in {path}")
    return lines


def new_state(args):
    """A fresh run's state from the command line."""
    if not args.engine or not args.openings:
        die("a new run needs --engine and --openings")
    text = open(args.params).read() if args.params else engine_params(args.engine)
    params = parse_spsa_lines(text)
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in names if n not in params]
        if unknown:
            die(f"--only names unknown parameters: {', '.join(unknown)}")
        params = {n: params[n] for n in names}
    for p in params.values():
        p["r_end"] *= args.r_scale
        p["value"] = p["default"]
    iterations = args.iterations
    return {
        "version": 1,
        "engine": os.path.abspath(args.engine),
        "openings": os.path.abspath(args.openings),
        "iterations": iterations,
        "A": args.A if args.A is not None else iterations / 10,
        "alpha": ALPHA,
        "gamma": GAMMA,
        "pairs": args.pairs,
        "nodes": args.nodes,
        "tc": args.tc,
        "seed": args.seed,
        "iteration": 0,
        "next_opening": 0,
        "totals": {"wins": 0, "draws": 0, "losses": 0, "faults": 0},
        "params": params,
    }


def schedule(state, p, k):
    """(c_k, R_k) of parameter `p` at iteration k (0-based), OpenBench's way."""
    n, big_a = state["iterations"], state["A"]
    c = p["c_end"] * n ** state["gamma"]
    a = p["r_end"] * p["c_end"] ** 2 * (big_a + n) ** state["alpha"]
    c_k = c / (k + 1) ** state["gamma"]
    a_k = a / (big_a + k + 1) ** state["alpha"]
    return c_k, a_k / c_k ** 2


def clamp(x, p):
    return min(p["max"], max(p["min"], x))


def engine_value(x, p):
    """What the engine is given: theta rounded to an integer, within range."""
    return int(clamp(math.floor(x + 0.5), p))


def fastchess_command(args, state, book, plus, minus, pgn):
    """The fastchess command for one iteration: `pairs` openings, each played twice."""
    cmd = [args.fastchess]
    for name, values in (("plus", plus), ("minus", minus)):
        cmd += ["-engine", f"cmd={state['engine']}", f"name={name}"]
        cmd += [f"option.{k}={v}" for k, v in values.items()]
    limit = [f"tc={state['tc']}"] if state["tc"] else ["tc=inf", f"nodes={state['nodes']}"]
    cmd += ["-each", "proto=uci", f"option.Hash={args.hash}", *limit]
    cmd += ["-openings", f"file={book}", "format=epd", "order=sequential"]
    cmd += ["-rounds", str(state["pairs"]), "-games", "2", "-repeat"]
    cmd += ["-concurrency", str(args.concurrency)]
    if not args.no_adjudication:
        cmd += ["-draw", "movenumber=40", "movecount=8", "score=10"]
        cmd += ["-resign", "movecount=3", "score=600", "twosided=true"]
    cmd += ["-pgnout", f"file={pgn}"]
    cmd += ["-config", f"outname={pgn}.config.json"]
    return cmd


def score_pgn(path):
    """(wins, draws, losses, faults) of `plus` over the games in a PGN file."""
    try:
        text = open(path).read()
    except OSError:
        return 0, 0, 0, 0
    wins = draws = losses = faults = 0
    for game in re.split(r"\n(?=\[Event )", text):
        white = re.search(r'\[White "([^"]*)"\]', game)
        result = re.search(r'\[Result "([^"]*)"\]', game)
        if not white or not result or result.group(1) == "*":
            continue
        termination = re.search(r'\[Termination "([^"]*)"\]', game)
        if termination and any(f in termination.group(1).lower() for f in FAULTS):
            faults += 1
        plus_white = white.group(1) == "plus"
        outcome = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}.get(result.group(1))
        if outcome is None:
            continue
        outcome = outcome if plus_white else -outcome
        wins += outcome == 1
        losses += outcome == -1
        draws += outcome == 0
    return wins, draws, losses, faults


def save(state, path):
    """Writes the state atomically (a killed run never leaves half a file)."""
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)


def iterate(args, state, openings, log):
    """Plays and applies one iteration; False when a game went wrong."""
    k = state["iteration"]
    rng = random.Random(state["seed"] * 1_000_003 + k)
    plus, minus, steps = {}, {}, {}
    for name, p in state["params"].items():
        c_k, r_k = schedule(state, p, k)
        sign = rng.choice((-1, 1))
        steps[name] = (c_k, r_k, sign)
        plus[name] = engine_value(p["value"] + sign * c_k, p)
        minus[name] = engine_value(p["value"] - sign * c_k, p)
    with tempfile.TemporaryDirectory(prefix="spsa-") as tmp:
        book = os.path.join(tmp, "book.epd")
        with open(book, "w") as f:
            for i in range(state["pairs"]):
                f.write(openings[(state["next_opening"] + i) % len(openings)] + "\n")
        pgn = os.path.join(tmp, "games.pgn")
        cmd = fastchess_command(args, state, book, plus, minus, pgn)
        run = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True)
        wins, draws, losses, faults = score_pgn(pgn)
        if args.keep_pgn:
            with open(args.keep_pgn, "a") as out, open(pgn) as games:
                out.write(games.read())
    games = wins + draws + losses
    if run.returncode != 0 or games != 2 * state["pairs"]:
        tail = "\n".join((run.stdout + run.stderr).splitlines()[-15:])
        die(f"iteration {k}: fastchess ended {run.returncode} with {games} games:\n{tail}")
    for name, p in state["params"].items():
        c_k, r_k, sign = steps[name]
        p["value"] = clamp(p["value"] + r_k * c_k * (wins - losses) * sign, p)
    totals = state["totals"]
    for key, n in (("wins", wins), ("draws", draws), ("losses", losses), ("faults", faults)):
        totals[key] += n
    state["iteration"] = k + 1
    state["next_opening"] = (state["next_opening"] + state["pairs"]) % len(openings)
    theta = {n: round(p["value"], 3) for n, p in state["params"].items()}
    log.write(json.dumps({"iteration": k + 1, "time": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                          time.gmtime()), "wdl": [wins, draws, losses], "faults": faults,
                          "theta": theta}) + "\n")
    log.flush()
    return faults == 0


def print_values(state, out=sys.stdout):
    """The tuned values, as `name value (default, min..max)` and as engine options."""
    for name, p in state["params"].items():
        value = engine_value(p["value"], p)
        print(f"{name:22} {value:6}   (default {p['default']:g}, theta {p['value']:.2f}, "
              f"{p['min']:g}..{p['max']:g})", file=out)
    options = " ".join(f"option.{n}={engine_value(p['value'], p)}"
                       for n, p in state["params"].items())
    print(f"\nfastchess options: {options}", file=out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--state", required=True, help="JSON state file (resumed if it exists)")
    ap.add_argument("--engine", help="a tuning build of Rookling (new run)")
    ap.add_argument("--openings", help="EPD book; each opening is played with both colours")
    ap.add_argument("--params", help="SPSA input file (default: ENGINE params)")
    ap.add_argument("--only", help="tune only these parameters (comma-separated)")
    ap.add_argument("--iterations", type=int, default=500, help="planned iterations N")
    ap.add_argument("--pairs", type=int, default=4, help="game pairs per iteration")
    ap.add_argument("--nodes", type=int, default=20000, help="nodes per move (default)")
    ap.add_argument("--tc", help="a time control such as 5+0.05 instead of --nodes")
    ap.add_argument("--A", type=float, help="SPSA's stability constant (default N / 10)")
    ap.add_argument("--r-scale", type=float, default=1.0,
                    help="multiply every r_end (a larger learning rate for short runs)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the perturbation signs")
    ap.add_argument("--concurrency", type=int, default=1, help="games at once")
    ap.add_argument("--hash", type=int, default=16, help="Hash of each engine, MB")
    ap.add_argument("--fastchess", default=os.environ.get("FASTCHESS")
                    or shutil.which("fastchess"), help="fastchess binary ($FASTCHESS)")
    ap.add_argument("--no-adjudication", action="store_true",
                    help="play every game out (default: fastchess draw/resign rules)")
    ap.add_argument("--until", help="stop before starting an iteration after this UTC "
                    "time (HH:MM)")
    ap.add_argument("--keep-pgn", help="append every game to this PGN file")
    ap.add_argument("--print", action="store_true", help="print the state's values and exit")
    args = ap.parse_args()

    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        if args.print:
            print(f"iteration {state['iteration']} of {state['iterations']}, "
                  f"totals {state['totals']}")
            print_values(state)
            return
        if args.engine:
            state["engine"] = os.path.abspath(args.engine)
    elif args.print:
        die(f"no state file {args.state}")
    else:
        state = new_state(args)
        save(state, args.state)
    if not args.fastchess or not os.access(args.fastchess, os.X_OK):
        die("fastchess not found: give --fastchess or set FASTCHESS")
    openings = read_openings(state["openings"])
    random.Random(state["seed"]).shuffle(openings)
    log_path = args.state + ".log"
    with open(log_path, "a") as log:
        while state["iteration"] < state["iterations"]:
            if args.until and time.strftime("%H:%M", time.gmtime()) >= args.until:
                print(f"spsa.py: {args.until} UTC reached", file=sys.stderr)
                break
            ok = iterate(args, state, openings, log)
            save(state, args.state)
            t = state["totals"]
            print(f"iteration {state['iteration']}/{state['iterations']}: "
                  f"+{t['wins']} ={t['draws']} -{t['losses']} (plus side)", file=sys.stderr)
            if not ok:
                die(f"iteration {state['iteration']}: a game ended by a fault "
                    f"(illegal move, time loss or crash); see --keep-pgn")
    print_values(state)


if __name__ == "__main__":
    main()
