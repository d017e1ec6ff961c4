#!/usr/bin/env python3
"""How much a better choice of find's tie-break weighting could give (issue 55).

Each repository's recent work chooses one of a few weightings of
nearness and activity (rank/tieweights.go). This reads the answers of the
same sessions asked under each weighting in turn, one file a weighting,
in the order of rank's list (0 the default):

    for k in 0 1 2 3 4 5 6 7; do
      wayfind-bench calibrate -half held-out -sets sessions -mirrors M \\
        -tie-weights $k -answers /tmp/ties$k.jsonl
    done
    python3 scripts/tie-weights-ceiling.py /tmp/ties[0-7].jsonl

and prints, for find's first answer with the visits: each weighting given
to every repository, then the best weighting of each repository chosen
knowing its answers — the ceiling of any choice made before them. Beside
each: how many repositories fall below their best one-line baseline.
Figures are pooled and the macro mean over repositories only, never a
repository's (a held-out half's answers are not read one by one).
"""
import collections
import json
import sys

WITH_VISITS = "with the visits"
NO_VISITS = "no visits"


def read(path):
    """Find's first answers of path: per repository, right with the
    visits, right without, questions, and each baseline's right."""
    right, without, n = collections.Counter(), collections.Counter(), collections.Counter()
    baselines = collections.defaultdict(collections.Counter)
    with open(path) as f:
        for line in f:
            a = json.loads(line)
            if a["set"] != "sessions find":
                continue
            repo = a["repo"]
            if a["class"] == "baseline":
                baselines[repo][a["mode"]] += a["firstRight"]
            elif a["mode"] == WITH_VISITS:
                right[repo] += a["firstRight"]
                n[repo] += 1
            elif a["mode"] == NO_VISITS:
                without[repo] += a["firstRight"]
    return right, without, n, baselines


def figures(right, n):
    pooled = 100 * sum(right[r] for r in n) / sum(n.values())
    macro = 100 * sum(right[r] / n[r] for r in n) / len(n)
    return pooled, macro


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = [read(p) for p in sys.argv[1:]]
    _, without, n, baselines = runs[0]
    for _, _, m, _ in runs[1:]:
        if m != n:
            sys.exit("the files do not hold the same questions")
    best_baseline = {r: max(baselines[r].values(), default=0) for r in n}

    def below(right):
        return sum(right[r] < best_baseline[r] for r in n)

    print("| find's first answer with the visits | pooled | macro | below the best baseline |")
    print("|---|---:|---:|---:|")
    print("| no visits | %.1f%% | %.1f%% | — |" % figures(without, n))
    for k, (right, _, _, _) in enumerate(runs):
        print("| weighting %d for every repository | %.1f%% | %.1f%% | %d of %d |" % ((k,) + figures(right, n) + (below(right), len(n))))
    ceiling = collections.Counter({r: max(run[0][r] for run in runs) for r in n})
    print("| each repository's best weighting, chosen knowing the answers | %.1f%% | %.1f%% | %d of %d |"
          % (figures(ceiling, n) + (below(ceiling), len(n))))
    print("| each repository's best baseline, chosen knowing the answers | %.1f%% | %.1f%% | — |"
          % figures(collections.Counter(best_baseline), n))
    print("\n%d questions, %d repositories" % (sum(n.values()), len(n)))


if __name__ == "__main__":
    main()
