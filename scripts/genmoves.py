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
    return subprocess.run(["git", "-C", repo, "-c", "core.quotePath=false", *args], check=True, capture_output=True).stdout


def renames(repo):
    """(time, old, new) for every rename, oldest first.

    A store missing blobs (a mirror that dropped large files) stops
    `git log -M` at the first one it cannot read; there the commits whose
    rename detection needs a missing blob (they add and delete files, one
    of them missing) are read with exact renames only, the rest with -M."""
    args = ["log", "-M", "--diff-filter=R", "--name-status", "--no-merges", "-z", "--format=%x01%ct"]
    try:
        return parse_renames(git(repo, *args, "--reverse"))
    except subprocess.CalledProcessError as e:
        if b"unable to read" not in e.stderr:
            raise
    order, needs = raw_commits(repo)
    missing = missing_blobs(repo, {b for bs in needs.values() for b in bs})
    exact = [h for h in order if needs.get(h, set()) & missing]
    similar = [h for h in order if not needs.get(h, set()) & missing]
    out = []
    for flag, hashes in (("-M", similar), ("-M100%", exact)):
        if hashes:
            a = [x if x != "-M" else flag for x in args] + ["--no-walk=unsorted", "--stdin", "--format=%x01%ct %H"]
            a.remove("--format=%x01%ct")
            res = subprocess.run(["git", "-C", repo, *a], input="\n".join(hashes).encode(), check=True, capture_output=True)
            out += parse_renames(res.stdout, order)
    out.sort(key=lambda r: r[3])
    return [r[:3] for r in out]


def parse_renames(out, order=None):
    t, pos, res = 0, 0, []
    fields = out.split(b"\0")
    i = 0
    while i < len(fields):
        f = fields[i].lstrip(b"\n")
        if f.startswith(b"\x01"):
            head = f[1:].split(b" ")
            t = int(head[0])
            if order is not None:
                pos = order[head[1].decode()]
            i += 1
            continue
        if f.startswith(b"R") and i + 2 < len(fields):
            res.append((t, fields[i + 1].decode("utf-8", "replace"), fields[i + 2].decode("utf-8", "replace"), pos))
            i += 3
            continue
        i += 1
    if order is None:
        return [r[:3] for r in res]
    return res


def raw_commits(repo):
    """Every commit's position (oldest first) and, for those that add and
    delete files, the blobs rename detection would compare."""
    out = git(repo, "log", "--raw", "--no-renames", "--no-abbrev", "--no-merges", "-z", "--reverse", "--format=%x01%H")
    order, needs, cur, adds, dels, blobs = {}, {}, None, False, False, set()

    def close():
        if cur and adds and dels:
            needs[cur] = set(blobs)

    fields = out.split(b"\0")
    i = 0
    while i < len(fields):
        f = fields[i].lstrip(b"\n")
        if f.startswith(b"\x01"):
            close()
            cur, adds, dels, blobs = f[1:].decode(), False, False, set()
            order[cur] = len(order)
        elif f.startswith(b":"):
            p = f[1:].split()
            if len(p) >= 5 and p[4][:1] == b"A":
                adds = True
                blobs.add(p[3].decode())
            elif len(p) >= 5 and p[4][:1] == b"D":
                dels = True
                blobs.add(p[2].decode())
            i += 1
        i += 1
    close()
    return order, needs


def missing_blobs(repo, blobs):
    if not blobs:
        return set()
    res = subprocess.run(["git", "-C", repo, "cat-file", "--batch-check=%(objectname)"], input="\n".join(sorted(blobs)).encode() + b"\n",
                         check=True, capture_output=True)
    return {l[:-len(" missing")] for l in res.stdout.decode().splitlines() if l.endswith(" missing")}


def head_listing(repo):
    """HEAD's files (a bare repository has no index to list) in git's
    order, with their sizes; links and submodules left out."""
    out = {}
    for entry in git(repo, "ls-tree", "-r", "-l", "-z", "HEAD").split(b"\0"):
        meta, _, path = entry.partition(b"\t")
        parts = meta.split()
        if len(parts) == 4 and parts[1] == b"blob" and parts[0] != b"120000":
            out[path.decode("utf-8", "replace")] = int(parts[3]) if parts[3].isdigit() else 0
    return out


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


def cases(repo, corpus, per):
    """The stale-path cases of a repository, and its HEAD listing."""
    listing = head_listing(repo)
    head = set(listing)
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
    # A typo that spells another path the repository has or had is no
    # typo: that path is a question of its own.
    known = set(head) | {p for _, old, new in rs for p in (old, new)}
    rng = random.Random(1)
    out = []
    for cat in ("real_moved", "real_renamed", "real_replaced"):
        items = sorted(by_cat.get(cat, {}).items())
        rng.shuffle(items)
        for k, (old, target) in enumerate(items[:per]):
            base = {"corpus": corpus, "kind": "resolve", "expected": target, "accept_none": cat == "real_replaced", "history": []}
            out.append(dict(base, id=f"{corpus}/gen/{cat}/{k}", category=cat, query=old))
            held = None
            if k % 3 == 0:
                held = f"/home/dev/src/{corpus.split('__')[-1]}/{old}:{rng.randrange(1, 40)}"
            elif k % 3 == 1:
                for _ in range(8):
                    held = typo(rng, old)
                    if held not in known:
                        break
                else:
                    held = None
            if held:
                out.append(dict(base, id=f"{corpus}/gen/{cat}_as_held/{k}", category=cat + "_as_held", query=held))
    return out, listing


def main():
    repo, corpus = sys.argv[1], sys.argv[2]
    per = int(sys.argv[3]) if len(sys.argv) > 3 and not sys.argv[3].startswith("--") else 50
    listing_dir = sys.argv[sys.argv.index("--listing") + 1] if "--listing" in sys.argv else None
    out, listing = cases(repo, corpus, per)
    for c in out:
        print(json.dumps(c))
    if listing_dir:
        with open(os.path.join(listing_dir, corpus + ".tsv"), "w") as f:
            for p, size in listing.items():
                f.write(f"{p}\t{size}\n")
    print(f"{sum(1 for c in out if '_as_held' not in c['category'])} renames followed to HEAD", file=sys.stderr)


if __name__ == "__main__":
    main()
