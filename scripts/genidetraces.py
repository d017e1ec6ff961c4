#!/usr/bin/env python3
"""Editor sessions from JetBrains IDEs' own history (issue 55: sessions
that are more than commits).

Some public repositories committed their `.idea/workspace.xml`. Until
about 2020 it held the IDE's `IdeDocumentHistory`: `CHANGED_PATHS`, the
files the developer edited in the IDE, oldest first, the latest last
(a file edited again moves to the end; about 50 kept). Each commit of
workspace.xml is a snapshot of that list.

Each snapshot's entries appended since the previous snapshot (what is
not, in order, a subsequence of it), and else its latest entry, is a
question when its base name is shared by 2 to 40 files: "which copy of
NAME did the developer mean?", the list's entries before it (the files
of the tree) its visits, most recent last. The tree and the history the
question is asked of are the snapshot commit's parent's — the commit
itself may hold the edit — so the file asked for, and its copies, must
be in the parent's tree. A question whose file and last five visits
repeat an earlier one is dropped.

With --opened the list read is `editorHistoryManager`'s instead: the
files opened in the editor, oldest first, the latest last (a file opened
again moves to the end) — where the person went, not what they changed,
the navigation history the product's affinity is for.

With --sublime the list is a Sublime Text workspace's (`*.sublime-
workspace`, which Sublime rewrites as the person works and some commit):
its `file_history`, the files opened, newest first (a file opened again
moves to the front), read oldest first and asked the same way.

Paths: `$PROJECT_DIR$/x` is x under the directory holding `.idea`; an
absolute entry is mapped by the one prefix that maps the most of a
snapshot's absolute entries onto files of the tree; the rest is dropped.
`.idea` files are not questions.

    python3 scripts/genidetraces.py [--opened | --sublime] OUT.jsonl.gz MIRRORS OWNER/NAME...

writes the questions in the agent sessions' format (wayfind-bench
agentsessions -data OUT), each with its repository's half as
testdata/idetraces/split.tsv gives it (held out when it is not listed).
"""
import collections
import functools
import gzip
import html
import json
import os
import posixpath
import re
import subprocess
import sys

HISTORY_XML = re.compile(r'<component name="IdeDocumentHistory"\s*>(.*?)</component>', re.S)
HISTORY_JSON = re.compile(r'<component name="IdeDocumentHistory"\s*><!\[CDATA\[(.*?)\]\]></component>', re.S)
CHANGED = re.compile(r'<option name="CHANGED_PATHS"\s*>\s*<list>(.*?)</list>', re.S)
OPTION = re.compile(r'<option value="([^"]*)"\s*/>')
OPENED = re.compile(r'<component name="editorHistoryManager"\s*>(.*?)</component>', re.S)
ENTRY = re.compile(r'<entry file="([^"]*)"')


SPLIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "idetraces", "split.tsv")


@functools.cache
def halves(split=SPLIT):
    """Each listed repository's half (a split.tsv: repository, tab, half;
    none when the file is not there yet)."""
    out = {}
    if not os.path.exists(split):
        return out
    for line in open(split):
        if line.strip() and not line.startswith("#"):
            repo, half = line.split()
            out[repo] = half
    return out


def git(mirror, *args):
    return subprocess.run(["git", "-C", mirror, *args], capture_output=True).stdout.decode("utf-8", "replace")


def changed_paths(text):
    """The snapshot's CHANGED_PATHS, oldest first; [] when it has none."""
    m = HISTORY_JSON.search(text)
    if m:
        try:
            return list(json.loads(m.group(1)).get("changedPaths", []))
        except ValueError:
            return []
    m = HISTORY_XML.search(text)
    if not m:
        return []
    m = CHANGED.search(m.group(1))
    return [html.unescape(v) for v in OPTION.findall(m.group(1))] if m else []


def opened_files(text):
    """The snapshot's editorHistoryManager entries, oldest first; [] when
    it has none."""
    m = OPENED.search(text)
    if not m:
        return []
    out = []
    for e in ENTRY.findall(m.group(1)):
        e = html.unescape(e)
        e = e[len("file://"):] if e.startswith("file://") else e
        if e not in out:
            out.append(e)
    return out


def sublime_history(text):
    """A Sublime workspace's file_history, oldest first; [] when it has
    none or is not JSON."""
    try:
        history = json.loads(text, strict=False).get("file_history", [])
    except (ValueError, AttributeError):
        return []
    out = []
    for e in reversed(history):
        if isinstance(e, str) and e not in out:
            out.append(e)
    return out


class Kind:
    """A list an editor keeps: the files holding it (a git pathspec and
    their name's end), the project directory of one, how to read it, and
    the questions' source."""

    def __init__(self, pathspec, suffix, project, read, source):
        self.pathspec, self.suffix, self.project, self.read, self.source = pathspec, suffix, project, read, source


JETBRAINS_EDITED = Kind(":(glob)**/.idea/workspace.xml", ".idea/workspace.xml", lambda ws: posixpath.dirname(posixpath.dirname(ws)),
                        changed_paths, "jetbrains-ide")
JETBRAINS_OPENED = Kind(JETBRAINS_EDITED.pathspec, JETBRAINS_EDITED.suffix, JETBRAINS_EDITED.project, opened_files, "jetbrains-ide-opened")
SUBLIME_OPENED = Kind(":(glob)**/*.sublime-workspace", ".sublime-workspace", posixpath.dirname, sublime_history, "sublime-text-opened")


def relative(entries, project, tree):
    """The entries as paths of the tree's repository (None: not mapped)."""
    counts = collections.Counter()
    for e in entries:
        if not e.startswith("$PROJECT_DIR$"):
            parts = e.split("/")
            for i in range(1, len(parts)):
                if "/".join(parts[i:]) in tree:
                    counts["/".join(parts[:i])] += 1
    prefix = max(counts.items(), key=lambda kv: (kv[1], -len(kv[0])))[0] if counts else None
    out = []
    for e in entries:
        if e.startswith("$PROJECT_DIR$"):
            p = posixpath.normpath(posixpath.join(project, e[len("$PROJECT_DIR$"):].lstrip("/")))
            out.append(None if p.startswith("..") or p == "." else p)
        elif prefix is not None and e.startswith(prefix + "/"):
            out.append(e[len(prefix) + 1:])
        else:
            out.append(None)
    return out


def appended_from(cur, prev):
    """Where cur's entries appended since prev begin."""
    if prev is None:
        return len(cur) - 1
    j = 0
    for i, e in enumerate(cur):
        while j < len(prev) and prev[j] != e:
            j += 1
        if j >= len(prev):
            return i
        j += 1
    return len(cur)


def tree(mirror, commit):
    """The commit's files (-z: a name git would quote comes as it is)."""
    return [p for p in git(mirror, "ls-tree", "-r", "-z", "--name-only", commit).split("\0") if p]


def questions(repo, mirror, kind=JETBRAINS_EDITED):
    workspaces = sorted({l for l in git(mirror, "-c", "core.quotePath=false", "log", "--all", "--format=", "--name-only", "--", kind.pathspec).splitlines()
                         if l.endswith(kind.suffix) and "node_modules/" not in l})
    seen, out = set(), []
    for ws in workspaces:
        project = kind.project(ws)
        prev = None
        for line in git(mirror, "log", "--all", "--topo-order", "--reverse", "--format=%H %P", "--", ws).splitlines():
            commit, *parents = line.split()
            entries = kind.read(git(mirror, "show", f"{commit}:{ws}"))
            if not entries or not parents:
                continue
            base = parents[0]
            paths = tree(mirror, base)
            files = set(paths)
            cur = [p for p in relative(entries, project, set(tree(mirror, commit))) if p]
            start = appended_from(cur, prev)
            prev = cur
            if not cur:
                continue
            by_name = collections.defaultdict(list)
            for p in paths:
                by_name[posixpath.basename(p)].append(p)
            for k in range(min(start, len(cur) - 1), len(cur)):
                want = cur[k]
                copies = by_name[posixpath.basename(want)]
                if want not in files or "/.idea/" in "/" + want or not 2 <= len(copies) <= 40:
                    continue
                visits = [v for v in cur[:k] if v in files]
                key = (want, tuple(visits[-5:]))
                if not visits or key in seen:
                    continue
                seen.add(key)
                out.append({"source": kind.source, "task": f"{ws}@{commit[:12]}", "repo": repo, "base_commit": base,
                            "name": posixpath.basename(want), "want": want, "visits": visits, "step": k, "half": halves().get(repo, "held-out")})
    return out


def main():
    args = sys.argv[1:]
    kind, kinds = JETBRAINS_EDITED, {"--opened": JETBRAINS_OPENED, "--sublime": SUBLIME_OPENED}
    if args and args[0] in kinds:
        kind, args = kinds[args[0]], args[1:]
    write(args[0], args[1], args[2:], lambda repo, mirror: questions(repo, mirror, kind))


def write(out, mirrors, repos, ask):
    """Asks each repository's mirror (MIRRORS/OWNER+NAME[/repo]) with
    ask(repo, mirror) and writes the questions to out, gzipped JSON lines
    in the repositories' order."""
    rows = []
    for repo in repos:
        mirror = os.path.join(mirrors, repo.replace("/", "+"))
        if os.path.isdir(os.path.join(mirror, "repo")):
            mirror = os.path.join(mirror, "repo")
        qs = ask(repo, mirror)
        print("%s: %d questions, %d files asked for" % (repo, len(qs), len({q["want"] for q in qs})), file=sys.stderr)
        rows += qs
    with gzip.open(out, "wt") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
