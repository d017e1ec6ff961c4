#!/usr/bin/env python3
"""Fit an order of a name's copies on the replayed sessions (issue 55).

Input: the rows `wayfind-bench calibrate -sets sessions` (or
`agentsessions`, as for the editor sessions of testdata/idetraces) writes
with WAYFIND_BENCH_SESSION_FEATURES=FILE
(cmd/wayfind-bench/sessionfeatures.go): one JSON line a copy of the name
asked for, a question's copies in a run.

A conditional logit (softmax over a question's copies) is fitted on the
tuning half; it is judged by leave-one-repository-out on the tuning half
(each repository's figure is of a model that never saw it) and, fitted on
the whole tuning half, on the held-out half — whose figures are printed
pooled and as the macro mean only, never a repository's or a question's.
Beside each: the engine's own first answer with the visits (VisitRank 0).

    python3 scripts/fit-session-order.py FILE [feature,feature,...]
    python3 scripts/fit-session-order.py --trees [--engine] FILE...
    python3 scripts/fit-session-order.py --export rerank/copyorder.onnx FILE...

Pure Python (no numpy here): a few thousand questions, seconds a fit.
--trees fits gradient-boosted trees instead (scikit-learn, Debian's
python3-sklearn), on what the engine is given of each copy and each
one's distance from the question's best copy: whether a rule that is not
a weighted sum — nearness where it is clear, activity where it is not —
orders better. The tuning half's figure is by five folds of repositories
(each repository's answers from a model that never saw it); beside each,
how many repositories fall below their best one-line baseline. With
--engine they read the engine's own inputs of a fitted order (the rows'
Features: rank.CopyFeatures) in place of the bench's. --export fits them
on the whole tuning half and writes the model find runs (rank/copyorder.go).
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


# The readings each copy is also read by less the question's largest:
# its standing among the name's copies.
RELATIVE = ("act", "sharedLast", "sharedMean", "current", "visits", "co", "len", "mineW")


def tree_rows(q, reading):
    """Each copy's reading, and each of RELATIVE it has less the
    question's largest; with no reading, the engine's own inputs of a
    fitted order (the rows' Features: rank.CopyFeatures), None where the
    engine reads no copies of the name."""
    if reading is None:
        return [r["Features"] for r in q] if all("Features" in r for r in q) else None
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


def split_halves(path, reading):
    """Each half's questions: repository, the rows the trees read (None
    where there are none), whether each copy is right, whether the
    engine's first is, the baselines', and which copies the order may
    put first — on the engine's inputs, as find runs it: a copy the test
    penalty falls on only when every copy has it (the penalty stays
    above the fitted order, rank/copyorder.go)."""
    import numpy as np
    half = {"tuning": [], "held-out": []}
    for q in questions(path):
        x = tree_rows(q, reading)
        first = [True] * len(q)
        if reading is None and x is not None:
            pen = [r["Engine"]["Penalized"] for r in q]
            first = [not p or all(pen) for p in pen]
        half[q[0]["Half"]].append((q[0]["Repo"], None if x is None else np.array(x), np.array([r["Right"] for r in q]),
                                   any(r["Right"] and r["VisitRank"] == 0 for r in q), baselines(q), np.array(first)))
    return half


def fit_trees(qs):
    """Gradient-boosted trees over qs' copies (a question with no right
    copy says nothing of an order); their settings were fixed before
    either half was read."""
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier
    X = np.vstack([q[1] for q in qs if q[2].any()])
    Y = np.concatenate([q[2] for q in qs if q[2].any()])
    m = HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, max_leaf_nodes=15,
                                       min_samples_leaf=40, l2_regularization=1.0, random_state=0)
    return m.fit(X, Y)


def trees(paths, reading, folds=5):
    """The trees judged on the tuning half of every file of paths by
    folds of repositories (a repository's fold is its place among its
    file's repositories not in an earlier file, by name, modulo folds;
    the first file's are as they were alone), each file's figures apart;
    then fitted on the whole tuning half and judged on each file's
    held-out half (pooled and macro only)."""
    import numpy as np

    def fit(qs):
        return fit_trees([q for q in qs if q[1] is not None])

    def judge(m, qs):
        model, engine, base = {}, {}, {}
        for r, x, y, e, b, first in qs:
            # Where the engine reads no copies, it answers by the formula.
            if x is not None:
                s = np.where(first, m.predict_proba(x)[:, 1], -1)
            model.setdefault(r, []).append(e if x is None else bool(y[int(np.argmax(s))]))
            engine.setdefault(r, []).append(e)
            base.setdefault(r, []).append(b)
        return model, engine, base

    def below(by_repo, base):
        best = {r: max(sum(b[i] for b in bs) for i in range(3)) for r, bs in base.items()}
        return sum(sum(v) < best[r] for r, v in by_repo.items())

    def report(what, model, engine, base):
        print("trees, %s: model %.1f%% pooled / %.1f%% macro, %d below the best baseline; engine %.1f%% / %.1f%%, %d below (%d questions, %d repositories)"
              % ((what,) + figures(model)[:2] + (below(model, base),) + figures(engine)[:2] + (below(engine, base),) + figures(engine)[2:]))

    halves = [split_halves(p, reading) for p in paths]
    fold = {}
    for h in halves:
        for i, r in enumerate(sorted({q[0] for q in h["tuning"]} - set(fold))):
            fold[r] = i % folds
    tuning = [q for h in halves for q in h["tuning"]]
    judged = [({}, {}, {}) for _ in paths]
    for k in range(folds):
        m = fit([q for q in tuning if fold[q[0]] != k])
        for h, acc in zip(halves, judged):
            for a, b in zip(acc, judge(m, [q for q in h["tuning"] if fold[q[0]] == k])):
                a.update(b)
    for p, acc in zip(paths, judged):
        report("%s, tuning, %d folds of repositories" % (p, folds), *acc)
    m = fit(tuning)
    for p, h in zip(paths, halves):
        if h["held-out"]:
            report("%s, held-out" % p, *judge(m, h["held-out"]))


def check_file(model):
    """The rows and scores a model is checked by: testdata/NAME.check.json
    beside it."""
    import os
    d, name = os.path.split(model)
    return os.path.join(d, "testdata", name.removesuffix(".onnx") + ".check.json")


def export(paths, out):
    """Fit the trees on the whole tuning half's engine inputs (of every
    file of paths) and write them as an ONNX TreeEnsembleRegressor (Debian's python3-onnx) taking
    float X [n, len(rank.CopyFeatureNames)] to Y [n, 1], the trees' raw
    score (a logit: the engine reads σ of it); check_file(OUT) holds a
    few tuning questions' rows and the fit's own scores of them, which
    the rerank package's test asks ONNX Runtime for."""
    import numpy as np
    import onnx
    from onnx import helper, TensorProto
    tuning = [q for p in paths for q in split_halves(p, None)["tuning"] if q[1] is not None]
    m = fit_trees(tuning)
    a = {k: [] for k in ("tree", "node", "feat", "val", "mode", "true", "false", "ttree", "tnode", "weight")}
    for t, (pred,) in enumerate(m._predictors):
        for n, node in enumerate(pred.nodes):
            a["tree"].append(t), a["node"].append(n)
            if node["is_leaf"]:
                a["feat"].append(0), a["val"].append(0.0), a["mode"].append("LEAF"), a["true"].append(0), a["false"].append(0)
                a["ttree"].append(t), a["tnode"].append(n), a["weight"].append(float(node["value"]))
            else:
                # scikit-learn sends a value at or below the threshold left.
                a["feat"].append(int(node["feature_idx"])), a["val"].append(float(node["num_threshold"]))
                a["mode"].append("BRANCH_LEQ"), a["true"].append(int(node["left"])), a["false"].append(int(node["right"]))
    n_in = tuning[0][1].shape[1]
    ens = helper.make_node(
        "TreeEnsembleRegressor", ["X"], ["Y"], domain="ai.onnx.ml",
        nodes_treeids=a["tree"], nodes_nodeids=a["node"], nodes_featureids=a["feat"], nodes_values=a["val"],
        nodes_modes=a["mode"], nodes_truenodeids=a["true"], nodes_falsenodeids=a["false"],
        target_treeids=a["ttree"], target_nodeids=a["tnode"], target_ids=[0] * len(a["weight"]), target_weights=a["weight"],
        n_targets=1, base_values=[float(np.ravel(m._baseline_prediction)[0])], aggregate_function="SUM", post_transform="NONE")
    g = helper.make_graph([ens], "copy-order", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [None, n_in])],
                          [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [None, 1])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("ai.onnx.ml", 3)],
                              producer_name="scripts/fit-session-order.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, out)
    check = [q[1] for q in tuning[:5]]
    with open(check_file(out), "w") as f:
        json.dump([{"x": x.tolist(), "y": m._raw_predict(x).ravel().tolist()} for x in check], f)
    print("%s: %d trees, %d nodes, %d inputs, fitted on %d tuning questions" % (out, len(m._predictors), len(a["tree"]), n_in, len(tuning)))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--export"]:
        export(sys.argv[3:], sys.argv[2])
    elif sys.argv[1:2] == ["--trees"]:
        if sys.argv[2:3] == ["--engine"]:
            trees(sys.argv[3:], None)
        else:
            trees(sys.argv[2:], bench_reading)
    else:
        main()
