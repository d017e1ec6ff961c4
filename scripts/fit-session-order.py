#!/usr/bin/env python3
"""Fit an order of a name's copies on the replayed sessions (issue 55).

Input: the rows `wayfind-bench calibrate -sets sessions` writes with
WAYFIND_BENCH_SESSION_FEATURES=FILE (cmd/wayfind-bench/sessionfeatures.go):
one JSON line a copy of the name asked for, a question's copies in a run.

A conditional logit (softmax over a question's copies) is fitted on the
tuning half; it is judged by leave-one-repository-out on the tuning half
(each repository's figure is of a model that never saw it) and, fitted on
the whole tuning half, on the held-out half — whose figures are printed
pooled and as the macro mean only, never a repository's or a question's.
Beside each: the engine's own first answer with the visits (VisitRank 0).

    python3 scripts/fit-session-order.py FILE [feature,feature,...]
    python3 scripts/fit-session-order.py --trees [--engine] FILE

Pure Python (no numpy here): a few thousand questions, seconds a fit.
--trees fits gradient-boosted trees instead (scikit-learn, Debian's
python3-sklearn), on what the engine is given of each copy and each
one's distance from the question's best copy: whether a rule that is not
a weighted sum — nearness where it is clear, activity where it is not —
orders better. The tuning half's figure is by five folds of repositories
(each repository's answers from a model that never saw it); beside each,
how many repositories fall below their best one-line baseline. With
--engine they read the engine's own reading of each copy (the rows'
Engine: rank.ReadCopies) in place of the bench's.
"""
import json
import math
import random
import sys

DEFAULT = "vis,vis0,authN,authR,auth1"


def rr(k):
    return 0.0 if k < 0 else 1.0 / (1 + k)


def features(r):
    return {
        "vis": rr(r["VisitRank"]), "vis0": float(r["VisitRank"] == 0),
        "prior": rr(r["PriorRank"]), "prior0": float(r["PriorRank"] == 0),
        "sharedLast": r["SharedLast"], "stepsLast": -r["StepsLast"],
        "sharedMean": r["SharedMean"], "stepsMean": -r["StepsMean"], "sharedMax": r["SharedMax"],
        "sameDir": float(r["SameDirAny"]), "sameTop": float(r["SameTopLast"]), "second": float(r["Second"]),
        "co": r["Co"], "act": math.log1p(r["Changes"]), "depth": -r["Depth"], "len": -r["Len"] / 20.0,
        "aux": -float(r["Aux"]),
        "authN": math.log1p(r["AuthorN"]), "authR": r["AuthorRecent"], "auth1": float(r["AuthorN"] > 0),
        "pastN": math.log1p(r["PastN"]), "pastR": r["PastRecent"], "past1": float(r["PastN"] > 0),
        "mineW": r["MineW"], "mine1": float(r["MineW"] > 0),
    }


def questions(path):
    rows = [json.loads(l) for l in open(path)]
    out, i = [], 0
    while i < len(rows):
        n = rows[i]["NCopies"]
        out.append(rows[i:i + n])
        i += n
    return out


def train(qs, names, epochs=25, lr=0.05, l2=1e-3):
    w = [0.0] * len(names)
    order = list(range(len(qs)))
    for ep in range(epochs):
        random.Random(ep).shuffle(order)
        for j in order:
            xs, ys = qs[j]
            if not any(ys):
                continue
            s = [sum(a * b for a, b in zip(w, x)) for x in xs]
            m = max(s)
            e = [math.exp(v - m) for v in s]
            z = sum(e)
            g = [0.0] * len(w)
            for x, ev, y in zip(xs, e, ys):
                c = ev / z - (1.0 if y else 0.0)
                for k in range(len(w)):
                    g[k] += c * x[k]
            for k in range(len(w)):
                w[k] -= lr * (g[k] + l2 * w[k])
    return w


def first_right(w, q):
    xs, ys = q
    s = [sum(a * b for a, b in zip(w, x)) for x in xs]
    return ys[max(range(len(xs)), key=lambda i: (s[i], -i))]


def figures(by_repo):
    n = sum(len(v) for v in by_repo.values())
    pooled = sum(sum(v) for v in by_repo.values()) / n
    macro = sum(sum(v) / len(v) for v in by_repo.values()) / len(by_repo)
    return 100 * pooled, 100 * macro, n, len(by_repo)


def main():
    path = sys.argv[1]
    names = (sys.argv[2] if len(sys.argv) > 2 else DEFAULT).split(",")
    half = {"tuning": [], "held-out": []}
    for q in questions(path):
        xs = [[features(r)[k] for k in names] for r in q]
        ys = [r["Right"] for r in q]
        engine = any(r["Right"] and r["VisitRank"] == 0 for r in q)
        half[q[0]["Half"]].append((q[0]["Repo"], (xs, ys), engine))
    tuning = half["tuning"]
    repos = sorted({r for r, _, _ in tuning})
    loro, eng = {}, {}
    for repo in repos:
        w = train([q for r, q, _ in tuning if r != repo], names)
        loro[repo] = [first_right(w, q) for r, q, _ in tuning if r == repo]
        eng[repo] = [e for r, _, e in tuning if r == repo]
    print("features:", ",".join(names))
    print("tuning, leave one repository out: model %.1f%% pooled / %.1f%% macro; engine %.1f%% / %.1f%% (%d questions, %d repositories)"
          % (figures(loro)[:2] + figures(eng)))
    w = train([q for _, q, _ in tuning], names)
    print("weights:", ", ".join("%s %.3f" % (k, v) for k, v in zip(names, w)))
    held = half["held-out"]
    if held:
        model, engine = {}, {}
        for r, q, e in held:
            model.setdefault(r, []).append(first_right(w, q))
            engine.setdefault(r, []).append(e)
        print("held-out: model %.1f%% pooled / %.1f%% macro; engine %.1f%% / %.1f%% (%d questions, %d repositories)"
              % (figures(model)[:2] + figures(engine)))


# What a request gives the engine of the user's own commits is their
# weights (mineW); the author's commits counted in the window and before
# it are the bench's knowledge, left out of the trees so that what they
# fit is what the engine could read.
BENCH_ONLY = {"authN", "authR", "auth1", "pastN", "pastR", "past1"}


def bench_reading(r):
    """The bench's reading of a copy, what a request brings only."""
    return {k: v for k, v in features(r).items() if k not in BENCH_ONLY}


def engine_reading(r):
    """The engine's own reading of a copy (rank.ReadCopies), with its
    places in the engine's orders and the path's length and depth."""
    f, e = features(r), r["Engine"]
    return {k: f[k] for k in ("vis", "vis0", "prior", "prior0", "len", "depth")} | {
        "current": e["Current"], "visits": e["Visits"], "co": e["CoChange"],
        "mineW": e["Mine"], "mine1": float(e["Mine"] > 0), "act": math.log1p(e["Changes"]),
        "aux": -float(e["Penalized"]),
    }


# The readings each copy is also read by less the question's largest:
# its standing among the name's copies.
RELATIVE = ("act", "sharedLast", "sharedMean", "current", "visits", "co", "len", "mineW")


def tree_rows(q, reading):
    """Each copy's reading, and each of RELATIVE it has less the
    question's largest."""
    fs = [reading(r) for r in q]
    names = sorted(fs[0])
    rel = [k for k in RELATIVE if k in fs[0]]
    best = {k: max(f[k] for f in fs) for k in rel}
    return [[f[k] for k in names] + [f[k] - best[k] for k in rel] + [len(q)] for f in fs]


def baselines(q):
    """Whether each one-line baseline's copy is the right one: the copy
    nearest the last visit, the shortest path, the most active (ties: the
    shorter path, then byte order)."""
    def first(key):
        return min(q, key=lambda r: (key(r), len(r["Copy"]), r["Copy"]))["Right"]
    return [first(lambda r: -r["SharedLast"]), first(lambda r: 0), first(lambda r: -r["Changes"])]


def trees(path, reading, folds=5):
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier

    def fit(qs):
        X = np.vstack([q[1] for q in qs if q[2].any()])
        Y = np.concatenate([q[2] for q in qs if q[2].any()])
        m = HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, max_leaf_nodes=15,
                                           min_samples_leaf=40, l2_regularization=1.0, random_state=0)
        return m.fit(X, Y)

    def judge(m, qs):
        model, engine, base = {}, {}, {}
        for r, x, y, e, b in qs:
            model.setdefault(r, []).append(bool(y[int(np.argmax(m.predict_proba(x)[:, 1]))]))
            engine.setdefault(r, []).append(e)
            base.setdefault(r, []).append(b)
        return model, engine, base

    def below(by_repo, base):
        best = {r: max(sum(b[i] for b in bs) for i in range(3)) for r, bs in base.items()}
        return sum(sum(v) < best[r] for r, v in by_repo.items())

    def report(what, model, engine, base):
        print("trees, %s: model %.1f%% pooled / %.1f%% macro, %d below the best baseline; engine %.1f%% / %.1f%%, %d below (%d questions, %d repositories)"
              % ((what,) + figures(model)[:2] + (below(model, base),) + figures(engine)[:2] + (below(engine, base),) + figures(engine)[2:]))

    half = {"tuning": [], "held-out": []}
    for q in questions(path):
        half[q[0]["Half"]].append((q[0]["Repo"], np.array(tree_rows(q, reading)), np.array([r["Right"] for r in q]),
                                   any(r["Right"] and r["VisitRank"] == 0 for r in q), baselines(q)))
    tuning = half["tuning"]
    repos = sorted({q[0] for q in tuning})
    model, engine, base = {}, {}, {}
    for k in range(folds):
        out = set(repos[k::folds])
        m, e, b = judge(fit([q for q in tuning if q[0] not in out]), [q for q in tuning if q[0] in out])
        model.update(m), engine.update(e), base.update(b)
    report("tuning, %d folds of repositories" % folds, model, engine, base)
    if half["held-out"]:
        report("held-out", *judge(fit(tuning), half["held-out"]))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--trees"]:
        if sys.argv[2:3] == ["--engine"]:
            trees(sys.argv[3], engine_reading)
        else:
            trees(sys.argv[2], bench_reading)
    else:
        main()
