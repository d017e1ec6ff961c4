#!/usr/bin/env python3
"""Editor sessions from Vim's own record of where a person went (issue 55:
sessions that are more than commits; a second editor beside JetBrains').

Some public repositories are a home directory put under git, `.viminfo`
and all. Its `# Jumplist (newest first):` holds the person's last 100
jumps, each a file (with line and column, and from Vim 8 on the time),
newest first — jumps within a file included, every move to another file
too, revisits as they happened. Each commit of a viminfo is a snapshot of
that list.

A snapshot's jumps, oldest first and with a run of jumps within one file
taken as one visit, is the sequence of files the person visited. Each
visit to a file whose base name 2 to 40 files of the tree share is a
question: "which copy of NAME did the person go to?", the files visited
before it (the files of the tree; most recent last) its visits. A visit
a previous snapshot already held is not asked again: from Vim 8 on, a
jump no later than the previous snapshot's latest; before it, a question
whose file and last five visits repeat an earlier one (that rule drops
repeats in any case, as scripts/genidetraces.py does).

The tree asked of is the snapshot commit's — the nearest a commit comes
to the working tree the person moved in: files they were editing are in
it, often for the first time — and the history the one before it, its
parent's, so that what the commit touched does not say which file the
person was in (wayfind-bench agentsessions' `tree_commit` beside
`base_commit`). A repository's first commit has no parent; it is asked
with its own history, one commit touching every file alike.

Paths: `~/x` and absolute paths are mapped by the one prefix that maps the
most of a snapshot's entries onto files of the commit's tree (as
genidetraces.py maps a JetBrains list's absolute entries); the rest —
/etc, other checkouts — is dropped, and a visit to it is no visit of the
tree's.

    python3 scripts/genvimtraces.py OUT.jsonl.gz MIRRORS OWNER/NAME...

writes the questions in the agent sessions' format (wayfind-bench
agentsessions -data OUT), each with its repository's half as
testdata/vimtraces/split.tsv gives it (held out when it is not listed).
"""
import collections
import functools
import os
import posixpath
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genidetraces  # noqa: E402  (the git call and the prefix mapping)

SPLIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "vimtraces", "split.tsv")
JUMP = re.compile(r"^-'\s+\d+\s+\d+\s+(.*)$")
# Vim 8's line after a jump: |4,39,LINE,COL,TIME,"PATH"
JUMP_TIME = re.compile(r'^\|4,39,\d+,\d+,(\d+),')


def jumps(text):
    """The snapshot's jumplist, oldest first: (path, time or None)."""
    out, inside = [], False
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("# "):
            inside = line.startswith("# Jumplist")
            continue
        if not inside:
            continue
        m = JUMP.match(line)
        if not m:
            continue
        t = None
        if i + 1 < len(lines):
            mt = JUMP_TIME.match(lines[i + 1])
            if mt:
                t = int(mt.group(1))
        out.append((m.group(1).strip(), t))
    out.reverse()
    return out


def in_tree(entries, home, tree):
    """The entries as paths of the tree (None: not mapped). `~/x` is x in
    home, the directory holding the viminfo; an absolute entry is mapped
    by the one prefix that maps the most of the snapshot's absolute
    entries onto files of the tree, as scripts/genidetraces.py maps a
    JetBrains list's."""
    out = []
    absolute = genidetraces.relative([e for e in entries if not e.startswith("~/")], "", tree)
    it = iter(absolute)
    for e in entries:
        if e.startswith("~/"):
            p = posixpath.normpath(posixpath.join(home, e[2:]))
            out.append(None if p.startswith("..") else p)
        else:
            out.append(next(it))
    return out


def visits_of(seq):
    """A run of jumps within one file as one visit: [(path, time)]."""
    out = []
    for p, t in seq:
        if p is None:
            continue
        if out and out[-1][0] == p:
            out[-1] = (p, t if t is not None else out[-1][1])
            continue
        out.append((p, t))
    return out


def questions(repo, mirror, source="vim-jumplist"):
    git = functools.partial(genidetraces.git, mirror)
    infos = sorted({l for l in git("-c", "core.quotePath=false", "log", "--all", "--format=", "--name-only", "--",
                                   ":(glob)**/.viminfo", ":(glob)**/_viminfo").splitlines()
                    if posixpath.basename(l) in (".viminfo", "_viminfo")})
    seen, out = set(), []
    for info in infos:
        latest = None
        for line in git("log", "--all", "--topo-order", "--reverse", "--format=%H %P", "--", info).splitlines():
            commit, *parents = line.split()
            entries = jumps(git("show", f"{commit}:{info}"))
            if not entries:
                continue
            base = parents[0] if parents else commit
            paths = genidetraces.tree(mirror, commit)
            files = set(paths)
            mapped = in_tree([p for p, _ in entries], posixpath.dirname(info), files)
            # A jump to a file outside the tree ends nothing: the visits are
            # the tree's files, consecutive repeats merged again.
            seq = visits_of([(m if m in files else None, t) for m, (_, t) in zip(mapped, entries)])
            by_name = collections.defaultdict(list)
            for p in paths:
                by_name[posixpath.basename(p)].append(p)
            before = latest
            times = [t for _, t in entries if t is not None]
            if times:
                latest = max(times) if latest is None else max(latest, *times)
            for k in range(1, len(seq)):
                want, t = seq[k]
                if t is not None and before is not None and t <= before:
                    continue
                copies = by_name[posixpath.basename(want)]
                if not 2 <= len(copies) <= 40:
                    continue
                visits = [p for p, _ in seq[:k]]
                key = (want, tuple(visits[-5:]))
                if key in seen:
                    continue
                seen.add(key)
                q = {"source": source, "task": f"{info}@{commit[:12]}", "repo": repo, "base_commit": base,
                     "name": posixpath.basename(want), "want": want, "visits": visits, "step": k,
                     "half": genidetraces.halves(SPLIT).get(repo, "held-out")}
                if base != commit:
                    q["tree_commit"] = commit
                out.append(q)
    return out


def main():
    genidetraces.write(sys.argv[1], sys.argv[2], sys.argv[3:], questions)


if __name__ == "__main__":
    main()
