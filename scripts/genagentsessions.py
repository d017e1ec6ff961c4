#!/usr/bin/env python3
"""Real coding agents' sessions: which copy of a shared file name they opened.

Reads the same public trajectories of coding agents on SWE-bench tasks as
scripts/genagentfail.py (through its readers, straight from the git mirrors
that hold them; this script imports genagentfail.py and reuses its readers,
its shell parsing and its file accesses), resolves each task's base commit
the same way (the trajectory's own, else --commits), and lists the tree of
the task's repository at that commit from its mirror (--mirrors; git
ls-tree only). A trajectory is read only when both are there, and skipped
as genagentfail skips it (its base commit not in the mirror, its
submission's pre-image blobs not the commit's, a Claude Code session that
cloned the repository again inside its checkout).

Method, for each trajectory:

  1. Its file accesses, in order (genagentfail's `trajectory_accesses`: the
     paths normalised against the agent's cwd and made relative to the
     trajectory's root or its aliases, as genagentfail does). Kept: the
     *reads* of a *regular file of the tree at the base commit* (mode
     100644 or 100755): `cat`, `head`, `tail`, `nl`, `less`, `more`, `sed`
     (not `sed -i`), the editor's `view` (`str_replace_editor view`),
     SWE-agent's `open`, Claude Code's `Read`. Dropped: a failed access (its
     observation said the path does not exist), a directory, a path outside
     the root, a write (and any later read of a path the agent wrote
     before it: the agent's own content), and every other program (grep,
     python, pytest, the editor's edits …).
  2. Each kept read R at position k (k >= 1: the first read of the
     trajectory has nothing before it) is a question "which copy of
     NAME did the agent mean?", NAME = basename(R), when 2 to 40 regular
     files of the tree share that exact base name and R was not read
     before in the same trajectory (a re-read is not a search).
  3. Its visits: the distinct files read before position k, in the order
     of their last read, the most recent last, at most the last 32.

One JSON object a question (keys sorted): `source` (the source's label),
`task` (the SWE-bench instance id), `repo` (OWNER/NAME, as the mirror
spells it), `base_commit`, `name`, `want` (R, repository-relative),
`visits`, `copies` (how many regular files of the tree are named NAME),
`step` (k, the read's position among the trajectory's kept reads, from 0),
`trajectory` (the trajectory's file, REPO:PATH), `half` and `split_half`.
`half` is the agentfail set's half of the source (testdata/agentfail/
cases.jsonl.gz, --agentfail): "tuning" when every case of that label is
tuning, else "held-out"; a label with no case there is "held-out".
`split_half` is the repository's half in the calibration split
(testdata/calibration/split.tsv, --split; OWNER/NAME compared without
case), or null when it is not there. Output order: the sources in the
order given, then trajectory file, then step; gzip with mtime 0 and no
file name, so the same inputs give the same bytes.

    scripts/genagentsessions.py \\
        --mini gemini3pro-mini=/work/.mirror/gruckion+mini-swe-agent/repo:HEAD:swebench_results/20251118_gemini-3-pro-74pct/trajs \\
        … (every source of testdata/agentfail/README.md's command; the
           whole command is in testdata/agentsessions/README.md) \\
        --commits testdata/agentfail/base_commits.tsv --mirrors /work/.mirror \\
        --agentfail testdata/agentfail/cases.jsonl.gz \\
        --split testdata/calibration/split.tsv \\
        --out testdata/agentsessions/sessions.jsonl.gz

Arguments: --mini, --openhands, --sweetdream, --sweagent, --claudecode,
--mopenhands, --commits and --mirrors as genagentfail.py's, and
  --agentfail FILE  the agentfail cases (gzip), for each source's half
  --split FILE      the calibration split (repo, lang, files, commits,
                    head, half; TAB-separated, # comments)
  --cap N           at most N questions a trajectory (the first N); 0, the
                    default: no cap
  --out FILE        the questions (gzip, one JSON object a line)
  --stats FILE      also write the counts as JSON here
"""

import argparse
import collections
import gzip
import importlib.util
import io
import json
import os
import posixpath
import subprocess
import sys

_spec = importlib.util.spec_from_file_location(
    "genagentfail", os.path.join(os.path.dirname(os.path.abspath(__file__)), "genagentfail.py"))
gaf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gaf)

MIN_COPIES, MAX_COPIES = 2, 40
MAX_VISITS = 32

# The programs whose operand is a file the agent opens to read.
SHELL_READS = {"cat", "head", "tail", "nl", "less", "more", "sed"}
TOOL_READS = {"str_replace_editor view", "open", "Read"}

READERS = (("mini", gaf.mini_trajs), ("openhands", gaf.openhands_trajs), ("sweetdream", gaf.sweetdream_trajs),
           ("sweagent", gaf.sweagent_trajs), ("claudecode", gaf.claudecode_trajs),
           ("mopenhands", gaf.mopenhands_trajs))


class Files:
    """The regular files (mode 100644, 100755) of a tree, by base name."""

    def __init__(self, gitdir, commit):
        out = gaf.git(gitdir, "ls-tree", "-r", "-z", "--full-tree", commit).decode("utf-8", "replace")
        self.regular = set()
        self.by_name = collections.Counter()
        for rec in out.split("\0"):
            if not rec:
                continue
            meta, path = rec.split("\t", 1)
            mode, typ = meta.split()[:2]
            if typ == "blob" and mode in ("100644", "100755"):
                self.regular.add(path)
                self.by_name[posixpath.basename(path)] += 1


def in_place_sed(shell, k):
    """Whether the k-th simple command of a shell text is `sed -i …`."""
    cmds = gaf.simple_commands(shell or "")
    if not cmds or k >= len(cmds):
        return False
    return any(w == "--in-place" or w.startswith("--in-place=") or
               (w.startswith("-") and not w.startswith("--") and "i" in w[1:] and w not in ("-e", "-f"))
               for w in cmds[k][1:] if w.startswith("-"))


def file_reads(traj, files, stats):
    """The trajectory's reads of regular files of the tree, in order, as
    repository-relative paths."""
    events, _created, roots = gaf.trajectory_accesses(traj, stats)
    reads, written = [], set()
    for n, k, a, absp, bad, cmd in events:
        if bad:
            continue
        rel = gaf.rel_to(roots, absp)
        if a.kind == "write":
            if rel:
                written.add(rel.rstrip("/"))
            continue
        if a.kind != "read" or absp.endswith("/") or not rel:
            continue
        tool = a.tool
        if tool not in TOOL_READS and tool not in SHELL_READS:
            if rel in files.regular:
                stats[f"not counted as a read: {tool}"] += 1
            continue
        if tool == "sed" and in_place_sed(cmd, k):
            # An edit, not a read; and the file is the agent's from then on.
            written.add(rel)
            stats["not counted as a read: sed -i"] += 1
            continue
        if rel not in files.regular:
            continue
        if rel in written:
            stats["not counted as a read: a file the agent wrote before"] += 1
            continue
        stats[f"read: {tool}"] += 1
        reads.append(rel)
    return reads


def questions_of(reads, files, cap):
    out = []
    last = collections.OrderedDict()  # path -> None, the most recent last
    for k, r in enumerate(reads):
        seen = r in last
        if k >= 1 and not seen:
            name = posixpath.basename(r)
            copies = files.by_name[name]
            if MIN_COPIES <= copies <= MAX_COPIES and (not cap or len(out) < cap):
                out.append({"name": name, "want": r, "visits": list(last)[-MAX_VISITS:], "copies": copies,
                            "step": k})
        if seen:
            last.move_to_end(r)
        else:
            last[r] = None
    return out


def source_halves(path):
    halves = collections.defaultdict(set)
    with gzip.open(path, "rt") as f:
        for line in f:
            c = json.loads(line)
            halves[c["agent"]].add(c.get("half", "tuning"))
    return {label: "tuning" if hs == {"tuning"} else "held-out" for label, hs in halves.items()}


def split_halves(path):
    out = {}
    for line in open(path):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) >= 6:
            out[f[0].lower()] = f[5]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for kind, _ in READERS:
        ap.add_argument("--" + kind, action="append", default=[])
    ap.add_argument("--commits")
    ap.add_argument("--mirrors", required=True)
    ap.add_argument("--agentfail", required=True)
    ap.add_argument("--split", required=True)
    ap.add_argument("--cap", type=int, default=0)
    ap.add_argument("--out", required=True)
    ap.add_argument("--stats")
    o = ap.parse_args()
    commits = {}
    if o.commits:
        for line in open(o.commits):
            if line.strip() and not line.startswith("#"):
                f = line.rstrip("\n").split("\t")
                commits[f[0]] = f[1]
    halves = source_halves(o.agentfail)
    splits = split_halves(o.split)
    # The sources in the order given on the command line.
    order = []
    for i, arg in enumerate(sys.argv):
        for kind, reader in READERS:
            if arg == "--" + kind and i + 1 < len(sys.argv):
                order.append((kind, reader, sys.argv[i + 1]))
            elif arg.startswith("--" + kind + "="):
                order.append((kind, reader, arg.split("=", 1)[1]))
    stats = collections.Counter()
    per_source = collections.OrderedDict()
    trees, fileses = {}, {}
    skipped_repos = collections.Counter()
    out = []
    for si, (kind, reader, spec) in enumerate(order):
        label, rest = spec.split("=", 1)
        gitdir, rev, under = rest.split(":", 2)
        ps = per_source.setdefault(label, collections.Counter())
        for t in reader(label, gitdir, rev, under):
            ps["trajectories read"] += 1
            if not t.instance:
                ps["skipped: no task"] += 1
                continue
            if getattr(t, "skip", None):
                ps[f"skipped: {t.skip}"] += 1
                continue
            commit = t.commit or commits.get(t.instance)
            if not commit:
                ps["skipped: no base commit"] += 1
                skipped_repos[("no base commit", gaf.repo_of(t.instance))] += 1
                continue
            gd = gaf.mirror_of(o.mirrors, gaf.repo_of(t.instance))
            if not gd:
                ps["skipped: no mirror"] += 1
                skipped_repos[("no mirror", gaf.repo_of(t.instance))] += 1
                continue
            key = (gd, commit)
            if key not in trees:
                try:
                    trees[key] = gaf.Tree(gd, commit)
                    fileses[key] = Files(gd, commit)
                except subprocess.CalledProcessError:
                    trees[key] = fileses[key] = None
            if trees[key] is None:
                ps["skipped: base commit not in the mirror"] += 1
                continue
            _ok, bad = trees[key].check_diff(t.submission)
            if bad:
                ps["skipped: submission pre-images differ from the base commit"] += 1
                continue
            ps["trajectories with a mirror and base commit"] += 1
            files = fileses[key]
            reads = file_reads(t, files, stats)
            ps["reads of files of the tree"] += len(reads)
            qs = questions_of(reads, files, o.cap)
            if qs:
                ps["trajectories with a question"] += 1
            repo = gaf.gitdir_repo(gd)
            for q in qs:
                q.update({"source": label, "task": t.instance, "repo": repo, "base_commit": commit,
                          "trajectory": t.source, "half": halves.get(label, "held-out"),
                          "split_half": splits.get(repo.lower())})
                out.append((si, t.source, q["step"], q))
            ps["questions"] += len(qs)
    out.sort(key=lambda x: x[:3])
    qs = [x[3] for x in out]
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, filename="") as f:
        for q in qs:
            f.write((json.dumps(q, sort_keys=True, ensure_ascii=False) + "\n").encode())
    os.makedirs(os.path.dirname(os.path.abspath(o.out)), exist_ok=True)
    with open(o.out, "wb") as f:
        f.write(buf.getvalue())
    summary = {"questions": len(qs), "bytes": len(buf.getvalue()),
               "by source": {k: dict(v) for k, v in per_source.items()},
               "half by source": {k: halves.get(k, "held-out") for k in per_source},
               "by repo": dict(sorted(collections.Counter(q["repo"] for q in qs).items())),
               "by half": dict(collections.Counter(q["half"] for q in qs)),
               "by split_half": {str(k): v for k, v in collections.Counter(q["split_half"] for q in qs).items()},
               "trajectories skipped, by reason and repository": {
                   f"{why}: {repo}": n for (why, repo), n in sorted(skipped_repos.items())},
               "accesses of regular files of the tree, by program":
                   dict(sorted(stats.items(), key=lambda kv: (-kv[1], kv[0])))}
    print(json.dumps(summary, indent=1))
    if o.stats:
        with open(o.stats, "w") as f:
            json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
