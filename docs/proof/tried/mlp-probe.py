#!/usr/bin/env python3
"""Probe: can a small non-linear model on the evaluation's own features fit Fairy-Stockfish's
scores better than the linear evaluation does? (Sixth/seventh session of issue 4; not shipped.)

Input: feature dumps written by `examples/dumpfeat.rs` of `eval-probe.patch` (one line per
quiet tuning position: the label `sigmoid(score)`, then `index:value` pairs of
`shishi::eval::features`, Black minus White, endgame terms already scaled), for a training and
a held-out set. Usage: mlp-probe.py HIDDEN TRAIN.feat[,..] HOLDOUT.feat[,..]
HIDDEN 0 fits the linear model alone. Features are standardised; Adam on mini-batches of 4,096,
60 epochs; the error is the tuner's (mean squared error of sigmoid(K e / 400), K 0.216); the
held-out error is printed every 5 epochs with the best one at the end.
"""
import sys
import numpy as np

WEIGHTS = 802  # shogi's weight count at 2343e2f
K = 0.216 * np.log(10) / 400


def load(paths):
    ys, rows, cols, vals = [], [], [], []
    for p in paths:
        for line in open(p):
            t = line.split()
            for f in t[1:]:
                i, x = f.split(':')
                rows.append(len(ys))
                cols.append(int(i))
                vals.append(float(x))
            ys.append(float(t[0]))
    x = np.zeros((len(ys), WEIGHTS), np.float32)
    x[rows, cols] = vals
    return x, np.array(ys, np.float32)


def main():
    hidden = int(sys.argv[1])
    xtr, ytr = load(sys.argv[2].split(','))
    xho, yho = load(sys.argv[3].split(','))
    sd = xtr.std(0) + 1e-6
    xtr /= sd
    xho /= sd
    rng = np.random.default_rng(1)
    p = {'w': np.zeros(WEIGHTS, np.float32)}
    if hidden:
        p['W1'] = (rng.standard_normal((WEIGHTS, hidden)) * 0.02).astype(np.float32)
        p['b1'] = np.zeros(hidden, np.float32)
        p['w2'] = np.zeros(hidden, np.float32)

    def forward(x):
        e = x @ p['w']
        if not hidden:
            return e, None
        z = x @ p['W1'] + p['b1']
        a = np.maximum(z, 0)
        return e + a @ p['w2'] * 100, (z, a)

    def error(x, y):
        e, _ = forward(x)
        return float(np.mean((1 / (1 + np.exp(-K * e)) - y) ** 2))

    m = {k: np.zeros_like(v) for k, v in p.items()}
    v2 = {k: np.zeros_like(v) for k, v in p.items()}
    best, step = (9.0, 0), 0
    for epoch in range(60):
        order = rng.permutation(len(ytr))
        for s in range(0, len(order), 4096):
            b = order[s:s + 4096]
            x, y = xtr[b], ytr[b]
            e, cache = forward(x)
            q = 1 / (1 + np.exp(-K * e))
            g = 2 * (q - y) * q * (1 - q) * K / len(b)
            grads = {'w': x.T @ g}
            if hidden:
                z, a = cache
                grads['w2'] = a.T @ g * 100
                ga = np.outer(g, p['w2'] * 100) * (z > 0)
                grads['W1'] = x.T @ ga
                grads['b1'] = ga.sum(0)
            step += 1
            for k in p:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v2[k] = 0.999 * v2[k] + 0.001 * grads[k] ** 2
                lr = 1.0 if k == 'w' else 0.01
                p[k] -= lr * (m[k] / (1 - 0.9 ** step)) / (np.sqrt(v2[k] / (1 - 0.999 ** step)) + 1e-8)
        h = error(xho, yho)
        best = min(best, (h, epoch))
        if epoch % 5 == 4:
            print(epoch, 'train', round(error(xtr, ytr), 6), 'held out', round(h, 6), flush=True)
    print('best held-out error', round(best[0], 6), 'at epoch', best[1])


if __name__ == '__main__':
    main()
