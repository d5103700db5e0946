#!/usr/bin/env python3
"""Fit the win/draw/loss model behind UCI_ShowWDL to Rookling's self-play games.

Input: `rookling datagen` data as text (`rookling data show`), one position a line,
`FEN | SCORE | RESULT` (score in centipawns and result 1.0/0.5/0.0, both from
White's view). For each position the
side to move's score s and the material m (pawns 1, knights and bishops 3, rooks 5,
queens 9, both sides; clamped to 17..78) are the inputs, the game's result for the
side to move the outcome. The model is Stockfish's:

    P(win)  = 1 / (1 + exp((a(x) - s) / b(x)))
    P(loss) = 1 / (1 + exp((a(x) + s) / b(x)))      x = m / 58
    P(draw) = 1 - P(win) - P(loss)

with a and b cubic polynomials in x, fitted by maximum likelihood. It prints the
coefficients as the Rust constants of src/search/wdl.rs, a table of observed against
predicted rates, and (with --plot) draws docs/wdl.png.

    rookling datagen --out games.bin --games 3000 --seed 31000
    rookling data show games.bin > games.txt     # the records as these lines
    python3 scripts/wdl_fit.py games.txt --plot docs/wdl.png

Needs numpy and scipy (matplotlib for --plot): pip install numpy scipy matplotlib.
"""

import argparse
import sys

import numpy as np
from scipy.optimize import minimize

NORM = 58.0
MATERIAL_RANGE = (17, 78)
VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9}


def read(path):
    """(scores, materials, outcomes) for the side to move; outcome 1, 0.5 or 0."""
    scores, materials, outcomes = [], [], []
    with open(path) as f:
        for line in f:
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3:
                continue
            fen, score, result = parts
            fields = fen.split()
            if len(fields) < 2:
                continue
            try:
                score, result = int(score), float(result)
            except ValueError:
                continue
            white = fields[1] == "w"
            material = sum(VALUES.get(c.lower(), 0) for c in fields[0])
            scores.append(score if white else -score)
            materials.append(material)
            outcomes.append(result if white else 1.0 - result)
    return np.array(scores, float), np.array(materials, float), np.array(outcomes, float)


def parameters(coef, x):
    """a(x), b(x) for the eight coefficients (a's, then b's, highest power first)."""
    a = np.polyval(coef[:4], x)
    b = np.polyval(coef[4:], x)
    return a, b


def probabilities(coef, s, x):
    a, b = parameters(coef, x)
    b = np.maximum(b, 1.0)
    win = 1.0 / (1.0 + np.exp((a - s) / b))
    loss = 1.0 / (1.0 + np.exp((a + s) / b))
    return win, loss


def negative_log_likelihood(coef, s, x, outcome):
    win, loss = probabilities(coef, s, x)
    draw = np.clip(1.0 - win - loss, 1e-9, 1.0)
    p = np.where(outcome == 1.0, win, np.where(outcome == 0.0, loss, draw))
    return -np.mean(np.log(np.clip(p, 1e-9, 1.0)))


def fit(s, x, outcome):
    start = np.array([0.0, 0.0, 0.0, 250.0, 0.0, 0.0, 0.0, 100.0])
    result = minimize(negative_log_likelihood, start, args=(s, x, outcome),
                      method="Nelder-Mead",
                      options={"maxiter": 40000, "maxfev": 40000, "xatol": 1e-3,
                               "fatol": 1e-9})
    # Polish with a gradient method from the simplex's answer.
    result = minimize(negative_log_likelihood, result.x, args=(s, x, outcome),
                      method="BFGS")
    return result.x, result.fun


def table(coef, s, x, outcome, bins):
    """Rows of (score bin centre, positions, observed W/D/L, predicted W/D/L)."""
    rows = []
    for lo in range(-bins[0], bins[0], bins[1]):
        mask = (s >= lo) & (s < lo + bins[1])
        n = int(mask.sum())
        if n < 200:
            continue
        o = outcome[mask]
        win, loss = probabilities(coef, s[mask], x[mask])
        rows.append((lo + bins[1] / 2, n, (o == 1).mean(), (o == 0.5).mean(), (o == 0).mean(),
                     win.mean(), 1 - win.mean() - loss.mean(), loss.mean()))
    return rows


def plot(coef, s, x, outcome, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    groups = [(17, 35, "material 17-35"), (36, 55, "material 36-55"), (56, 78, "material 56-78")]
    fig, axes = plt.subplots(1, len(groups), figsize=(15, 4.5), sharey=True)
    for ax, (lo, hi, title) in zip(axes, groups):
        m = np.clip(x * NORM, *MATERIAL_RANGE)
        mask = (m >= lo) & (m <= hi)
        centres, obs, pred = [], [], []
        for b in range(-600, 600, 25):
            sel = mask & (s >= b) & (s < b + 25)
            if sel.sum() < 100:
                continue
            o = outcome[sel]
            win, loss = probabilities(coef, s[sel], x[sel])
            centres.append(b + 12.5)
            obs.append(((o == 1).mean(), (o == 0.5).mean(), (o == 0).mean()))
            pred.append((win.mean(), 1 - win.mean() - loss.mean(), loss.mean()))
        obs, pred = np.array(obs), np.array(pred)
        for k, (label, colour) in enumerate((("win", "tab:green"), ("draw", "tab:gray"),
                                             ("loss", "tab:red"))):
            ax.plot(centres, obs[:, k], "o", color=colour, ms=3, label=f"{label} observed")
            ax.plot(centres, pred[:, k], "-", color=colour, label=f"{label} model")
        ax.set_title(f"{title} ({int(mask.sum())} positions)")
        ax.set_xlabel("score, side to move (cp)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("rate")
    axes[0].legend(fontsize=8)
    fig.suptitle("Rookling's WDL model: self-play results against the model's prediction")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    print(f"plot written to {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", help="rookling datagen files")
    ap.add_argument("--plot", metavar="PNG", help="draw the fit")
    args = ap.parse_args()
    parts = [read(p) for p in args.data]
    s = np.concatenate([p[0] for p in parts])
    m = np.concatenate([p[1] for p in parts])
    outcome = np.concatenate([p[2] for p in parts])
    if len(s) == 0:
        sys.exit("wdl_fit.py: no positions read")
    keep = np.abs(s) <= 2000
    s, m, outcome = s[keep], m[keep], outcome[keep]
    x = np.clip(m, *MATERIAL_RANGE) / NORM
    coef, nll = fit(s, x, outcome)
    print(f"{len(s)} positions (|score| <= 2000), "
          f"wins {(outcome == 1).mean():.3f} draws {(outcome == 0.5).mean():.3f} "
          f"losses {(outcome == 0).mean():.3f}; mean negative log-likelihood {nll:.4f}")
    fmt = lambda c: "[" + ", ".join(f"{v:.3f}" for v in c) + "]"
    print("\n// src/search/wdl.rs")
    print(f"const A: [f64; 4] = {fmt(coef[:4])};")
    print(f"const B: [f64; 4] = {fmt(coef[4:])};")
    for material in (20, 40, 58, 78):
        a, b = parameters(coef, material / NORM)
        print(f"material {material}: a = {a:.1f} cp (50% wins), b = {b:.1f}")
    print("\nscore   positions  observed W/D/L        model W/D/L")
    for row in table(coef, s, x, outcome, (400, 50)):
        print(f"{row[0]:+6.0f} {row[1]:10d}  {row[2]:.3f} {row[3]:.3f} {row[4]:.3f}   "
              f"{row[5]:.3f} {row[6]:.3f} {row[7]:.3f}")
    if args.plot:
        plot(coef, s, x, outcome, args.plot)


if __name__ == "__main__":
    main()
