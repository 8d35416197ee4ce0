#!/usr/bin/env python3
"""Fits one rating per level to every calibration match (logistic Elo model, maximum
likelihood), with Stockfish's UCI_Elo values as fixed anchors. Prints each match and the
ratings with an approximate 95% margin (from each level's own Fisher information).

    python3 scripts/calibration_fit.py DIR [MATCH_TO_SKIP ...]

DIR holds the JSON summaries `gambit match -json` writes (scripts/calibrate.sh)."""
import json, math, sys, glob, os, re
d = sys.argv[1] if len(sys.argv) > 1 else '.'
skip = set(sys.argv[2:])
matches = []
for f in sorted(glob.glob(os.path.join(d, '*.json'))):
    name = os.path.basename(f)[:-5]
    if name in skip:
        continue
    j = json.load(open(f))
    m1 = re.match(r'Gambit L(\d)', j['Engine1'])
    m2 = re.match(r'(?:Gambit L(\d)|SF(\d+))', j['Engine2'])
    if not m1 or not m2:
        continue
    a = int(m1.group(1))
    b = ('L', int(m2.group(1))) if m2.group(1) else ('SF', int(m2.group(2)))
    matches.append((name, a, b, j['Score'], j['Games'], j))
E = lambda diff: 1 / (1 + 10 ** (-diff / 400))
R = {l: 1500.0 for l in range(1, 9)}
def opp(b):
    return R[b[1]] if b[0] == 'L' else float(b[1])
for it in range(2000):
    grad = {l: 0.0 for l in R}
    hess = {l: 1e-9 for l in R}
    for _, a, b, s, n, _ in matches:
        e = E(R[a] - opp(b))
        k = math.log(10) / 400
        grad[a] += s - n * e
        hess[a] += n * e * (1 - e) * k
        if b[0] == 'L':
            grad[b[1]] -= s - n * e
            hess[b[1]] += n * e * (1 - e) * k
    for l in R:
        if hess[l] > 1e-6:
            R[l] += max(-50, min(50, grad[l] / hess[l] / 2))
se = {l: 1.96 / math.sqrt(hess[l] * math.log(10) / 400) if hess[l] > 1e-6 else float('nan') for l in R}
for name, a, b, s, n, j in matches:
    if 'EloBound' in j:  # a clean sweep: a one-sided 95% bound, not a difference
        # The direction is who swept, not the bound's sign: under five games a sweep's
        # bound lies on the loser's side of zero.
        elo = f"Elo {'above' if s == n else 'below'} {j['EloBound']:+.0f} (95%)"
    else:
        elo = f"Elo {j['Elo']:+.0f} ± {j['EloError']:.0f}"
    print(f"{name:12s} L{a} vs {b[0]}{b[1]}: {s}/{n} ({100*s/n:.1f}%), {elo}")
print()
for l in sorted(R):
    print(f"L{l}: {R[l]:.0f} ± {se[l]:.0f}")
