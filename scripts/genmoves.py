#!/usr/bin/env python3
"""Real stale paths from a git checkout's own history, in the shape of
testdata/bench/stale/real-moves-public.jsonl:

    python3 scripts/genmoves.py CHECKOUT CORPUS_NAME [PER_CATEGORY] > cases.jsonl

Every rename `git log -M --diff-filter=R` records is followed forward
through the later renames of its new path (by path, the way a person
chasing "where did it go" would) to a path that HEAD's tree has; renames
whose chain ends elsewhere (the file was deleted later) are left out.
The old path is the query: as written (`real_moved` when the file name
stayed, `real_renamed` when the stem is similar, `real_replaced`
otherwise), and as held (`_as_held`: from another machine's checkout
with a :line, or with one typo in the name). It also writes the HEAD
listing as CORPUS_NAME.tsv beside the cases' directory when asked
(--listing DIR), so that the names-alone run can lay it out.

This reads git's renames independently of wayfind's own fold
(vcs/record.go), so the two can disagree; where they do, the case
stays and wayfind is judged against git's chain.
"""
import difflib, json, os, random, subprocess, sys


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def renames(repo):
    """(time, old, new) for every rename, oldest first."""
    out = git(repo, "log", "-M", "--diff-filter=R", "--name-status", "--no-merges", "-z", "--reverse", "--format=%x01%ct")
    t, res = 0, []
    fields = out.split(b"\0")
    i = 0
    while i < len(fields):
        f = fields[i].lstrip(b"\n")
        if f.startswith(b"\x01"):
            t = int(f[1:])
            i += 1
            continue
        if f.startswith(b"R") and i + 2 < len(fields):
            res.append((t, fields[i + 1].decode("utf-8", "replace"), fields[i + 2].decode("utf-8", "replace")))
            i += 3
            continue
        i += 1
    return res


def stem(p):
    b = os.path.basename(p)
    return b.rsplit(".", 1)[0] if "." in b[1:] else b


def category(old, new):
    if os.path.basename(old) == os.path.basename(new):
        return "real_moved"
    if difflib.SequenceMatcher(None, stem(old).lower(), stem(new).lower()).ratio() >= 0.5:
        return "real_renamed"
    return "real_replaced"


def typo(rng, p):
    d, b = os.path.split(p)
    s = stem(b)
    if len(s) < 4:
        return None
    i = rng.randrange(1, len(s) - 1)
    s2 = s[:i] + s[i + 1] + s[i] + s[i + 2:] if rng.random() < 0.5 else s[:i] + s[i] + s[i:]
    b2 = s2 + b[len(s):]
    return os.path.join(d, b2) if d else b2


def main():
    repo, corpus = sys.argv[1], sys.argv[2]
    per = int(sys.argv[3]) if len(sys.argv) > 3 and not sys.argv[3].startswith("--") else 50
    listing_dir = sys.argv[sys.argv.index("--listing") + 1] if "--listing" in sys.argv else None
    head = set(git(repo, "ls-files", "-z").decode("utf-8", "replace").split("\0")) - {""}
    rs = renames(repo)
    # Each path's latest rename away from it, by time: where the path led.
    nxt = {}
    for t, old, new in rs:
        nxt[old] = (t, new)

    def follow(p, t0):
        seen = set()
        while p not in head:
            if p in seen or p not in nxt or nxt[p][0] < t0:
                return None
            seen.add(p)
            t0, p = nxt[p]
        return p

    by_cat = {}
    for t, old, new in rs:
        if old in head:
            continue  # the old path has a file again: no stale path
        target = follow(new, t)
        if target is None:
            continue
        by_cat.setdefault(category(old, target), {})[old] = target
    rng = random.Random(1)
    n = 0
    for cat in ("real_moved", "real_renamed", "real_replaced"):
        items = sorted(by_cat.get(cat, {}).items())
        rng.shuffle(items)
        for k, (old, target) in enumerate(items[:per]):
            base = {"corpus": corpus, "kind": "resolve", "expected": target, "accept_none": cat == "real_replaced", "history": []}
            print(json.dumps(dict(base, id=f"{corpus}/gen/{cat}/{k}", category=cat, query=old)))
            held = None
            if k % 3 == 0:
                held = f"/home/dev/src/{corpus.split('__')[-1]}/{old}:{rng.randrange(1, 40)}"
            elif k % 3 == 1:
                held = typo(rng, old)
            if held:
                print(json.dumps(dict(base, id=f"{corpus}/gen/{cat}_as_held/{k}", category=cat + "_as_held", query=held)))
            n += 1
    if listing_dir:
        with open(os.path.join(listing_dir, corpus + ".tsv"), "w") as f:
            for p in sorted(head):
                f.write(p + "\t0\n")
    print(f"{n} renames followed to HEAD", file=sys.stderr)


if __name__ == "__main__":
    main()
