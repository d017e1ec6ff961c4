#!/usr/bin/env python3
"""Real broken references from a git repository's own documents and code:

    python3 scripts/genlinks.py GITDIR CORPUS_NAME [--max N] > links.jsonl

GITDIR may be a bare repository: everything is read through git's
plumbing (ls-tree, cat-file --batch, log, blame).

A reference is a path that a document or a source file names, read the
way its own language reads it: Markdown links, images and reference
definitions (a leading `/` meaning the repository root); HTML href/src
(in Markdown too, where a leading `/` is again the root); reStructuredText include/literalinclude/image/figure directives,
`text <target>`_ links and :download:; AsciiDoc include::, image::,
link: and xref:; C's quoted #include (the including file's directory,
then the root, then any directory named `include`); CSS url() and
@import (SCSS partials too); relative JS/TS import/require/export-from
specifiers resolved as Node and TypeScript do (extensions, index files,
a `.js` specifier naming a `.ts` file); shell `source`/`.` of a literal
relative path (the script's directory, then the root); and path-like tokens (a `/` and a file extension) in the
comments of any source language, read from the root, then from the
file's directory.  URLs with a scheme, pure #anchors, templated targets,
site paths in HTML and node_modules are left out; a target that is a
directory, or lies in a submodule or under a symlink, is left out too
(nothing to tell).

1. Every reference at HEAD whose target is no file is broken.  (A C
   include counts as broken only if no file at HEAD ends with the
   included path either: a compiler's -I finds those.)
2. `git blame` says which commit W wrote the line, and the document's
   path at W.  The target is resolved against that path by the same
   rule and must have been a file in W's tree; if the line's last edit
   came after the target had gone but the reference itself is older
   (the same text is in the previous version), blame goes back to the
   previous version, up to three times.  Never valid: dropped (a typo,
   a planned or a generated file).  A reference whose candidates never
   existed in any commit is dropped without a blame.
3. The target path T at W is followed forward through git's own
   renames and deletes, as scripts/genmoves.py does: the first time a
   path leaves (renamed away or deleted) after the current point, its
   new path is followed from there, until a path stays.  A delete that
   a later commit undoes (the same blob added back at the same path) is
   no end.  Two histories are read: every non-merge commit
   (`git log -M --no-merges`, in topological order) and the first-parent
   line of HEAD (its merges diffed against their first parent, a side
   branch's commits entering at the merge that brought them in).  When
   the two disagree, a file of HEAD the whole history leads to wins (a
   merge's first-parent diff may read a move as a delete), else the
   first-parent line does (a side branch's delete
   of a path that lives on in mainline does not end it), unless it
   ends nowhere.  `chain` says which was used.  The outcome is a HEAD
   path, or "deleted" (expected null, deleted_in the deleting commit),
   or nothing (dropped as unfollowable).
4. Corrections people made (`*_fixed`): in the newest commits' -U0
   diffs of documents and sources, a removed and an added line that are
   the same but for one reference target A -> B, where A named no file
   in the parent P and B names one in the commit.  A is blamed at P and
   followed as in 2-3 all the way to HEAD (expected); B is followed
   from the commit to HEAD (fix); agree says whether they meet.  The
   case is asked at HEAD: from is the document's path at HEAD (its own
   renames followed), and A must still be broken there.

Stores that lack some blobs (files of 4 MiB or more dropped) make
`git log -M` die on the first unreadable blob: when that happens the
commits whose added or deleted blobs are missing are read with exact
renames only (-M100%) and all others with -M; diffs that would need a
missing blob are skipped, and so is a document that cannot be read.

Output: one JSON object per line, sorted by id; at most --max cases per
category, sampled with random.Random(1).  A summary goes to stderr.
"""
import argparse
import bisect
import collections
import concurrent.futures
import difflib
import json
import os
import posixpath
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

MAX_DOC = 1 << 20  # bytes; larger documents are skipped
BLAME_ROUNDS = 3
RENAME_LIMIT = "5000"

# ---------------------------------------------------------------- git


class GitError(Exception):
    pass


def path_str(b):
    return b.decode("utf-8", "surrogateescape")


def path_bytes(s):
    return s.encode("utf-8", "surrogateescape")


class Git:
    """git plumbing on one repository, run from an empty directory (a
    store with no config looks like a work tree to git, and a file in
    the current directory named like a revision would be ambiguous)."""

    def __init__(self, gitdir):
        self.dir = os.path.abspath(gitdir)
        self._cwd = tempfile.TemporaryDirectory(prefix="genlinks-")
        self.cwd = self._cwd.name

    def cmd(self, *args, cfg=()):
        return ["git", "--git-dir", self.dir, "-c", "core.quotePath=false", *cfg, *args]

    def run(self, *args, stdin=None, cfg=()):
        p = subprocess.run(self.cmd(*args, cfg=cfg), input=stdin, capture_output=True, cwd=self.cwd)
        if p.returncode:
            raise GitError(p.stderr.decode("utf-8", "replace").strip())
        return p.stdout

    def stream(self, *args, stdin=None):
        """Lines (bytes, with their newline) of a git command's output;
        GitError at the end if the command failed.  Closing the generator
        early ends the command."""
        err = tempfile.TemporaryFile()
        p = subprocess.Popen(self.cmd(*args), stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=err, cwd=self.cwd)
        if stdin is not None:
            threading.Thread(target=_feed, args=(p.stdin, stdin), daemon=True).start()
        done = False
        try:
            for line in p.stdout:
                yield line
            done = True
        finally:
            if not done:
                p.kill()
            p.stdout.close()
            rc = p.wait()
            err.seek(0)
            msg = err.read().decode("utf-8", "replace").strip()
            err.close()
        if rc:
            raise GitError(msg)

    def object_types(self, names):
        """{name: 'blob'|'tree'|'commit'|None} for object names such as
        'REV:path' (None: absent or unreadable)."""
        names = [n for n in dict.fromkeys(names) if "\n" not in n]
        if not names:
            return {}
        out = self.run("cat-file", "--batch-check=%(objecttype)", stdin=b"".join(path_bytes(n) + b"\n" for n in names))
        lines = out.split(b"\n")
        return {n: (l.decode() if l in (b"blob", b"tree", b"commit") else None) for n, l in zip(names, lines)}

    def contents(self, names):
        """Yields (name, bytes or None) for object names, via one
        `cat-file --batch`; None for a missing object or a non-blob."""
        names = [n for n in names if "\n" not in n]
        if not names:
            return
        p = subprocess.Popen(self.cmd("cat-file", "--batch"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, cwd=self.cwd)
        threading.Thread(target=_feed, args=(p.stdin, b"".join(path_bytes(n) + b"\n" for n in names)),
                         daemon=True).start()
        try:
            for n in names:
                head = p.stdout.readline().split()
                if len(head) < 3:  # "<name> missing" / "ambiguous"
                    yield n, None
                    continue
                data = p.stdout.read(int(head[-1]))
                p.stdout.read(1)
                yield n, data if head[-2] == b"blob" else None
        finally:
            p.stdout.close()
            p.kill()
            p.wait()


def _feed(pipe, data):
    try:
        pipe.write(data)
        pipe.close()
    except (BrokenPipeError, OSError):
        pass


# ---------------------------------------------------------------- the HEAD tree


class Tree:
    """HEAD's listing: files, directories, and the paths one cannot look
    inside (submodules, symlinks)."""

    def __init__(self, git, rev):
        self.files, self.sizes, self.opaque = {}, {}, set()
        out = git.run("ls-tree", "-r", "-z", "-l", "--full-tree", rev)
        for rec in out.split(b"\0"):
            if not rec:
                continue
            meta, path = rec.split(b"\t", 1)
            mode, typ, sha, size = meta.split()
            p = path_str(path)
            if typ == b"commit" or mode == b"120000":
                self.opaque.add(p)
            else:
                self.files[p] = sha.decode()
                self.sizes[p] = int(size) if size.isdigit() else -1  # "BAD": the blob is missing
        self.dirs = set()
        for p in list(self.files) + list(self.opaque):
            d = posixpath.dirname(p)
            while d and d not in self.dirs:
                self.dirs.add(d)
                d = posixpath.dirname(d)

    def under_opaque(self, p):
        d = p
        while d:
            if d in self.opaque:
                return True
            d = posixpath.dirname(d)
        return False


# ---------------------------------------------------------------- history


class Commits:
    """Every commit reachable from HEAD in topological order (parents
    first), the first-parent line, and for each commit the point at
    which it entered the first-parent line."""

    def __init__(self, git, head):
        out = git.run("rev-list", "--topo-order", "--reverse", "--parents", head).split(b"\n")
        self.parents = {}
        self.topo = {}
        for i, l in enumerate(x for x in out if x):
            f = l.decode().split()
            self.parents[f[0]] = f[1:]
            self.topo[f[0]] = i
        fp = []
        c = head
        while c:
            fp.append(c)
            ps = self.parents.get(c) or []
            c = ps[0] if ps else None
        fp.reverse()
        self.fp = {c: i for i, c in enumerate(fp)}
        self.merges_on_fp = [c for c in fp if len(self.parents[c]) > 1]
        self.entry = {}
        for i, c in enumerate(fp):
            self.entry[c] = i
            stack = list(self.parents[c][1:])
            while stack:
                x = stack.pop()
                if x in self.entry:
                    continue
                self.entry[x] = i
                stack.extend(self.parents.get(x, ()))


def parse_raw_log(lines):
    """(commit, status, path, old blob, new blob) from
    `git log --raw --no-renames --no-abbrev -z --format=%x01%H`."""
    data = b"".join(lines)
    commit = None
    fields = data.split(b"\0")
    i = 0
    while i < len(fields):
        f = fields[i].lstrip(b"\n")
        if f.startswith(b"\x01"):
            commit = f[1:].decode().strip()
            i += 1
            continue
        if f.startswith(b":") and i + 1 < len(fields):
            meta = f.split()
            yield commit, meta[4][:1].decode(), path_str(fields[i + 1]), meta[2].decode(), meta[3].decode()
            i += 2
            continue
        i += 1


def parse_name_status(data):
    """(commit, 'R'|'D', old, new) from
    `git log -M --name-status -z --format=%x01%H`."""
    commit = None
    fields = data.split(b"\0")
    i = 0
    while i < len(fields):
        f = fields[i].lstrip(b"\n")
        if f.startswith(b"\x01"):
            commit = f[1:].decode().strip()
            i += 1
            continue
        if f.startswith(b"R") and i + 2 < len(fields):
            yield commit, "R", path_str(fields[i + 1]), path_str(fields[i + 2])
            i += 3
            continue
        if f.startswith(b"D") and i + 1 < len(fields):
            yield commit, "D", path_str(fields[i + 1]), None
            i += 2
            continue
        i += 1


class Changes:
    """What the raw log says: every path ever added, each add's blob,
    each delete's blob, and the blobs each commit's rename detection
    would have to read."""

    def __init__(self, git, commits):
        self.ever = set()
        self.adds = []  # (commit, path, blob)
        self.del_blob = {}
        self.needs = collections.defaultdict(set)  # commit -> blobs rename detection reads
        base = ["log", "--raw", "--no-renames", "--no-abbrev", "--diff-filter=AD", "-z", "--format=%x01%H"]
        runs = [base + ["--no-merges", git.head, "--"]]
        if commits.merges_on_fp:
            runs.append(base + ["--first-parent", "--merges", "--diff-merges=first-parent", git.head, "--"])
        for args in runs:
            for c, st, path, old, new in parse_raw_log(git.stream(*args)):
                if st == "A":
                    self.ever.add(path)
                    self.adds.append((c, path, new))
                    self.needs[c].add(new)
                elif st == "D":
                    self.del_blob[(c, path)] = old
                    self.needs[c].add(old)

    def commits_needing_missing(self, git):
        blobs = sorted({b for bs in self.needs.values() for b in bs})
        have = git.object_types(blobs)
        missing = {b for b in blobs if have.get(b) is None}
        return {c for c, bs in self.needs.items() if bs & missing}, len(missing)


def rename_log(git, args, commits_list, bad, stats, label):
    """R/D events of a `git log -M --diff-filter=RD --name-status` run.
    Fast path: one run.  If a blob cannot be read, the commits needing a
    missing blob are re-read with exact renames only."""
    cfg = ["-c", "diff.renameLimit=" + RENAME_LIMIT]
    fmt = ["--diff-filter=RD", "--name-status", "-z", "--format=%x01%H"]
    try:
        return list(parse_name_status(git.run("log", "-M", *fmt, *args, git.head, "--", cfg=cfg)))
    except GitError as e:
        if "unable to read" not in str(e) and "missing" not in str(e):
            raise
    bad_set = bad()
    stats[label + " commits read with exact renames only"] = len([c for c in commits_list if c in bad_set])
    good = [c for c in commits_list if c not in bad_set]
    slow = [c for c in commits_list if c in bad_set]
    events = []
    diffm = ["--diff-merges=first-parent"] if "--first-parent" in args else []
    for group, m in ((good, "-M"), (slow, "-M100%")):
        if not group:
            continue
        stdin = "".join(c + "\n" for c in group).encode()
        try:
            out = git.run("log", m, *fmt, *diffm, "--no-walk=unsorted", "--stdin", stdin=stdin, cfg=cfg)
        except GitError:
            stats[label + " read with exact renames only after all"] = 1
            out = git.run("log", "-M100%", *fmt, *diffm, "--no-walk=unsorted", "--stdin", stdin=stdin, cfg=cfg)
        events.extend(parse_name_status(out))
    return events


class Chain:
    """One history's leaves (renames away, deletes) and adds per path,
    in that history's order, and the rule for following a path."""

    def __init__(self, name, index, start):
        self.name, self.index, self.start = name, index, start
        self.leaves = collections.defaultdict(list)  # path -> [(idx, kind, commit, new, blob)]
        self.adds = collections.defaultdict(list)  # path -> [(idx, blob)]
        self.sources = collections.defaultdict(set)  # path -> paths renamed to it

    def leave(self, commit, kind, old, new, blob):
        i = self.index.get(commit)
        if i is not None:
            self.leaves[old].append((i, kind, commit, new or "", blob or ""))
            if kind == "R":
                self.sources[new].add(old)

    def former_paths(self, path, limit=64):
        """The path and every path git says was renamed to it, back to
        the beginning."""
        seen, todo = [path], [path]
        while todo and len(seen) < limit:
            for q in sorted(self.sources.get(todo.pop(), ())):
                if q not in seen:
                    seen.append(q)
                    todo.append(q)
        return seen

    def add(self, commit, path, blob):
        i = self.index.get(commit)
        if i is not None:
            self.adds[path].append((i, blob))

    def seal(self):
        for v in self.leaves.values():
            v.sort()
        for v in self.adds.values():
            v.sort()

    def follow(self, path, commit, head_files):
        """Where the file at `path` in `commit` went by HEAD:
        ('path', p), ('deleted', commit) or None (ends nowhere)."""
        t = self.start(commit)
        if t is None:
            return None
        p = path
        for _ in range(200):
            evs = self.leaves.get(p, ())
            k = bisect.bisect_left(evs, (t,))
            if k == len(evs):
                return ("path", p) if p in head_files else None
            i, kind, c, new, blob = evs[k]
            if kind == "R":
                p, t = new, i + 1
                continue
            back = [j for j, b in self.adds.get(p, ()) if j > i and b == blob]
            if back:  # deleted, then the same file put back: a revert
                t = back[0] + 1
                continue
            return ("deleted", c)
        return None


def build_chains(git, commits, changes, stats):
    """The all-history chain and the first-parent chain."""
    nonmerge = [c for c in sorted(commits.topo, key=commits.topo.get) if len(commits.parents[c]) <= 1]
    bad_cache = []

    def bad():
        if not bad_cache:
            b, n = changes.commits_needing_missing(git)
            stats["missing blobs"] = n
            bad_cache.append(b)
        return bad_cache[0]

    ev_all = rename_log(git, ["--no-merges"], nonmerge, bad, stats, "all-history")
    ev_fpm = []
    if commits.merges_on_fp:
        ev_fpm = rename_log(git, ["--first-parent", "--merges"], commits.merges_on_fp, bad, stats, "first-parent merge")
    all_chain = Chain("all", commits.topo, lambda c: commits.topo[c] + 1 if c in commits.topo else None)

    def fp_start(c):
        if c in commits.fp:
            return commits.fp[c] + 1
        return commits.entry.get(c)

    fp_chain = Chain("first-parent", commits.fp, fp_start)
    fp_chain.brought_in = lambda side, merge: commits.entry.get(side) == commits.fp.get(merge)
    for c, kind, old, new in ev_all:
        blob = changes.del_blob.get((c, old))
        all_chain.leave(c, kind, old, new, blob)
        fp_chain.leave(c, kind, old, new, blob)
    for c, kind, old, new in ev_fpm:
        fp_chain.leave(c, kind, old, new, changes.del_blob.get((c, old)))
    for c, path, blob in changes.adds:
        all_chain.add(c, path, blob)
        fp_chain.add(c, path, blob)
    all_chain.seal()
    fp_chain.seal()
    stats["renames/deletes read"] = len(ev_all) + len(ev_fpm)
    return all_chain, fp_chain


def truth(chains, path, commit, head_files, stats):
    """(outcome, chain name).  When the two histories disagree: a file
    of HEAD the whole history leads to is the answer (git paired the file
    on the commit that moved it; a merge's first-parent diff, one diff of
    many changes, may not pair it, and then reads the move as a delete);
    otherwise the first-parent line's answer (a side branch's delete that
    the line never took), unless it ends nowhere.  When both say deleted,
    and the merge the first-parent line names is the one that brought the
    other's deleting commit in, the deleting commit itself is the
    answer."""
    all_chain, fp_chain = chains
    a = all_chain.follow(path, commit, head_files)
    f = fp_chain.follow(path, commit, head_files)
    if a == f:
        return a, "all"
    if a and f and a[0] == f[0] == "deleted" and fp_chain.brought_in(a[1], f[1]):
        return a, "all"
    stats["chains disagreeing"] += 1
    if a and a[0] == "path":
        return a, "all"
    if f is not None:
        return f, "first-parent"
    return a, "all"


# ---------------------------------------------------------------- languages

CATEGORY = {"md": "markdown", "md_html": "html", "html": "html", "rst": "rst", "adoc": "asciidoc",
            "c": "include", "css": "css", "scss": "css", "less": "css", "js": "import", "sh": "source",
            "comment": "comment"}


class Style:
    """A language's comments: line markers, a block pair, string quotes,
    and whether a marker must follow whitespace (shell's `#`)."""

    def __init__(self, line=(), block=None, quotes='"\'', spaced=()):
        self.line, self.block, self.quotes, self.spaced = line, block, quotes, spaced
        self.chars = set("".join(line) + ("".join(block) if block else ""))
        firsts = {m[0] for m in line} | ({block[0][0]} if block else set())
        self.next = re.compile("[%s]" % re.escape("".join(sorted(firsts | set(quotes)))))
        self.in_quote = {q: re.compile("[%s]" % re.escape("\\" + q)) for q in quotes}


C_STYLE = Style(("//",), ("/*", "*/"))
GO_STYLE = Style(("//",), ("/*", "*/"), '"`\'')
RUST_STYLE = Style(("//",), ("/*", "*/"), '"')
JS_STYLE = Style(("//",), ("/*", "*/"), '"\'`')
CSS_STYLE = Style((), ("/*", "*/"))
PHP_STYLE = Style(("//", "#"), ("/*", "*/"))
HASH_STYLE = Style(("#",), None, '"\'', ("#",))
YAML_STYLE = Style(("#",), None, '"', ("#",))
DASH_STYLE = Style(("--",), None, '"\'', ("--",))
SEMI_STYLE = Style((";",), None, '"')

C_EXT = {".c", ".h", ".cc", ".cpp", ".hpp", ".hh", ".cxx"}
JS_EXT = {".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte"}
SH_EXT = {".sh", ".bash", ".zsh"}
COMMENT_EXT = {}
for _exts, _style in (
        (C_EXT | {".m", ".mm", ".java", ".kt", ".kts", ".scala", ".swift", ".cs", ".dart", ".groovy", ".gradle",
                  ".proto", ".zig", ".sass", ".scss", ".less", ".jsonc", ".hxx", ".inl", ".ipp", ".cu"}, C_STYLE),
        ({".go"}, GO_STYLE), ({".rs"}, RUST_STYLE), (JS_EXT, JS_STYLE), ({".css"}, CSS_STYLE),
        ({".php"}, PHP_STYLE),
        (SH_EXT | {".py", ".pyi", ".pyx", ".pxd", ".rb", ".pl", ".pm", ".r", ".cmake", ".mk", ".tf", ".nix", ".ex",
                   ".exs", ".jl", ".ps1", ".fish", ".awk", ".tcl", ".rake", ".gemspec", ".bzl", ".star", ".cfg",
                   ".conf", ".pxi"}, HASH_STYLE),
        ({".yaml", ".yml", ".toml"}, YAML_STYLE),
        ({".sql", ".lua", ".hs", ".elm", ".ada"}, DASH_STYLE),
        ({".el", ".lisp", ".clj", ".cljs", ".scm", ".asm", ".ini"}, SEMI_STYLE)):
    for _e in _exts:
        COMMENT_EXT[_e] = _style
COMMENT_NAMES = {"Makefile": HASH_STYLE, "GNUmakefile": HASH_STYLE, "CMakeLists.txt": HASH_STYLE,
                 "Dockerfile": HASH_STYLE, "Rakefile": HASH_STYLE, "Gemfile": HASH_STYLE, "BUILD": HASH_STYLE,
                 "BUILD.bazel": HASH_STYLE, "WORKSPACE": HASH_STYLE, "meson.build": HASH_STYLE,
                 "Vagrantfile": HASH_STYLE, "Jenkinsfile": C_STYLE, "SConstruct": HASH_STYLE,
                 "SConscript": HASH_STYLE}
MARKUP_EXT = {".md": "md", ".markdown": "md", ".mdx": "md", ".html": "html", ".htm": "html", ".rst": "rst",
              ".adoc": "adoc", ".asciidoc": "adoc"}
SHEBANG = re.compile(rb"^#!\s*\S*?(?:/env\s+(?:-\S+\s+)*)?(\S*?)(?:\s|$)")


class Profile:
    """What to read in one document: its markup, the code references of
    its language, and its comments."""

    def __init__(self, markup=None, code=(), comments=None, css_rule="css"):
        self.markup, self.code, self.comments, self.css_rule = markup, set(code), comments, css_rule

    def __bool__(self):
        return bool(self.markup or self.code or self.comments)


def profile_of(path, head=b""):
    base = posixpath.basename(path)
    ext = posixpath.splitext(base)[1].lower()
    if ext in MARKUP_EXT:
        return Profile(markup=MARKUP_EXT[ext])
    if base in COMMENT_NAMES:
        return Profile(comments=COMMENT_NAMES[base])
    if ext in C_EXT:
        return Profile(code=["c"], comments=C_STYLE)
    if ext in (".css", ".scss", ".less", ".sass"):
        return Profile(code=["css"], comments=COMMENT_EXT[ext], css_rule={".css": "css", ".less": "less"}.get(ext, "scss"))
    if ext in JS_EXT:
        return Profile(code=["js"], comments=JS_STYLE)
    if ext in SH_EXT:
        return Profile(code=["sh"], comments=HASH_STYLE)
    if ext in COMMENT_EXT:
        return Profile(comments=COMMENT_EXT[ext])
    if not ext and head.startswith(b"#!"):
        m = SHEBANG.match(head.split(b"\n", 1)[0])
        prog = posixpath.basename(m.group(1).decode("utf-8", "replace")) if m else ""
        if re.fullmatch(r"(ba|da|z|k|a)?sh", prog):
            return Profile(code=["sh"], comments=HASH_STYLE)
        if re.match(r"(python|ruby|perl|tclsh|Rscript)", prog):
            return Profile(comments=HASH_STYLE)
        if re.match(r"(node|deno|bun|tsx|ts-node)", prog):
            return Profile(code=["js"], comments=JS_STYLE)
    return Profile()


class Ref:
    __slots__ = ("rule", "query", "line", "col")

    def __init__(self, rule, query, line, col):
        self.rule, self.query, self.line, self.col = rule, query, line, col


# --- Markdown

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")
MD_REFDEF = re.compile(r"^ {0,3}\[([^\]^][^\]]*)\]:[ \t]*(<[^>\n]*>|\S+)")
HTML_ATTR = re.compile(r"""(?<![\w-])(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>`()=;{}]+))""", re.I)


def mask(line, spans):
    for a, b in spans:
        line = line[:a] + " " * (b - a) + line[b:]
    return line


def md_inline_links(line):
    """(destination as written, offset) of each `[text](dest "title")`."""
    for m in re.finditer(r"\]\(", line):
        j = m.end()
        n = len(line)
        while j < n and line[j] in " \t":
            j += 1
        start = j
        if j < n and line[j] == "<":
            k = line.find(">", j)
            if k < 0:
                continue
            j = k + 1
        else:
            depth = 0
            while j < n:
                c = line[j]
                if c == "\\" and j + 1 < n:
                    j += 2
                    continue
                if c == "(":
                    depth += 1
                elif c == ")":
                    if depth == 0:
                        break
                    depth -= 1
                elif c in " \t":
                    break
                j += 1
        dest = line[start:j]
        while j < n and line[j] in " \t":
            j += 1
        if j < n and line[j] in "\"'(":
            close = ")" if line[j] == "(" else line[j]
            k = line.find(close, j + 1)
            if k < 0:
                continue
            j = k + 1
            while j < n and line[j] in " \t":
                j += 1
        if j < n and line[j] == ")" and dest:
            yield dest, start


def markdown_refs(lines, fragment=False):
    out = []
    fence = None
    for no, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if m and not fragment:
            mark = m.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence) and not line[m.end():].strip():
                fence = None
            continue
        if fence is not None:
            continue
        if "](" not in line and "]:" not in line and "=" not in line:
            continue
        clean = mask(line, [(s.start(), s.end()) for s in CODE_SPAN.finditer(line)]) if "`" in line else line
        d = MD_REFDEF.match(clean)
        if d:
            out.append(Ref("md", d.group(2), no, d.start(2)))
        for dest, col in md_inline_links(clean):
            out.append(Ref("md", dest, no, col))
        for a in HTML_ATTR.finditer(clean):
            g = 1 if a.group(1) is not None else 2 if a.group(2) is not None else 3
            out.append(Ref("md_html", a.group(g), no, a.start(g)))
    return out


def html_refs(lines, fragment=False):
    out = []
    for no, line in enumerate(lines, 1):
        for a in HTML_ATTR.finditer(line):
            g = 1 if a.group(1) is not None else 2 if a.group(2) is not None else 3
            out.append(Ref("html", a.group(g), no, a.start(g)))
    return out


# --- reStructuredText

RST_DIRECTIVE = re.compile(r"^\s*\.\.\s+(?:include|literalinclude|image|figure)::\s+(\S(?:.*\S)?)\s*$")
RST_TARGET = re.compile(r"^\s*\.\.\s+_[^:`]+:\s+(\S+)\s*$")
RST_LINK = re.compile(r"`[^`<]*<([^<>`]+)>`__?")
RST_DOWNLOAD = re.compile(r":download:`(?:[^`<]*<([^<>`]+)>|([^`<>]+))`")
LOOKS_LIKE_FILE = re.compile(r"(?:/|\.[A-Za-z0-9]{1,8}(?:[#?].*)?$)")


def rst_refs(lines, fragment=False):
    out = []
    for no, line in enumerate(lines, 1):
        if ".." not in line and "`" not in line:
            continue
        for rx in (RST_DIRECTIVE, RST_TARGET):
            m = rx.match(line)
            if m and (rx is RST_DIRECTIVE or LOOKS_LIKE_FILE.search(m.group(1))):
                out.append(Ref("rst", m.group(1), no, m.start(1)))
        for m in RST_DOWNLOAD.finditer(line):
            g = 1 if m.group(1) is not None else 2
            out.append(Ref("rst", m.group(g), no, m.start(g)))
        for m in RST_LINK.finditer(line):
            if line[max(0, m.start() - 12):m.start()].endswith(":download:"):
                continue
            t = m.group(1)
            if not t.endswith("_") and LOOKS_LIKE_FILE.search(t):
                out.append(Ref("rst", t, no, m.start(1)))
    return out


# --- AsciiDoc

ADOC = re.compile(r"(?<![\w:])(?:(?:include|image)::|(?:image|link|xref):(?!:))([^\[\s]+)\[")


def adoc_refs(lines, fragment=False):
    out = []
    for no, line in enumerate(lines, 1):
        if ":" in line:
            for m in ADOC.finditer(line):
                out.append(Ref("adoc", m.group(1), no, m.start(1)))
    return out


# --- code: C includes, CSS, JS/TS imports, shell source

C_INCLUDE = re.compile(r'^\s*#\s*(?:include|import)\s*"([^"]+)"')
CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]+))\s*\)""")
CSS_IMPORT = re.compile(r"""@(?:import|use|forward)\s+(?:url\(\s*)?(?:"([^"]+)"|'([^']+)')""")
JS_IMPORT = re.compile(r"""(?:\bfrom|\bimport|\brequire(?:\.resolve)?|\bexport\s*\*\s*from)\s*\(?\s*(['"])(\.\.?/[^'"\n]*)\1""")
SH_SOURCE = re.compile(r"""(?:^|[;&|]|\b(?:then|do|else)\b)\s*(?:source|\.)\s+(["']?)([^\s"'`;|&<>()]+)\1""")


def code_refs(prof, lines, masked):
    out = []
    for no, line in enumerate(masked, 1):
        if "c" in prof.code and "#" in line:
            m = C_INCLUDE.match(line)
            if m:
                out.append(Ref("c", m.group(1), no, m.start(1)))
        if "css" in prof.code and ("url(" in line or "@" in line):
            for rx in (CSS_URL, CSS_IMPORT):
                for m in rx.finditer(line):
                    g = next(i for i in (1, 2, 3) if i <= rx.groups and m.group(i) is not None)
                    out.append(Ref(prof.css_rule if rx is CSS_IMPORT else "css", m.group(g), no, m.start(g)))
        if "js" in prof.code and "./" in line:
            for m in JS_IMPORT.finditer(line):
                out.append(Ref("js", m.group(2), no, m.start(2)))
        if "sh" in prof.code and ("source" in line or "." in line):
            for m in SH_SOURCE.finditer(line):
                out.append(Ref("sh", m.group(2), no, m.start(2)))
    return out


# --- comments

PATH_TOKEN = re.compile(r"(?<![\w/.:@~$%{\\-])((?:\.\.?/)*[\w@+-][\w.@+-]*(?:/[\w.@+-]+)+\.[A-Za-z][A-Za-z0-9_]{0,9})"
                        r"(?![\w/(])")


def comment_spans(lines, style, fragment=False):
    """Per line, the (start, end) spans that are comments.  Strings are
    single-line; a block comment carries over to the next lines."""
    res = []
    in_block = False
    bopen, bclose = style.block or (None, None)
    for line in lines:
        spans = []
        i, n = 0, len(line)
        if fragment and style.block and line.lstrip().startswith("*"):
            res.append([(0, n)])
            continue
        if in_block:
            k = line.find(bclose)
            if k < 0:
                res.append([(0, n)])
                continue
            spans.append((0, k + len(bclose)))
            i = k + len(bclose)
            in_block = False
        rest = line[i:] if i else line
        if not any(ch in rest for ch in style.chars):
            res.append(spans)
            continue
        q = None
        while i < n:
            m = (style.in_quote[q] if q else style.next).search(line, i)
            if not m:
                break
            i = m.start()
            c = line[i]
            if q:
                if c == "\\":
                    i += 2
                    continue
                q = None
                i += 1
                continue
            if c in style.quotes:
                q = c
                i += 1
                continue
            if bopen and line.startswith(bopen, i):
                k = line.find(bclose, i + len(bopen))
                if k < 0:
                    spans.append((i, n))
                    in_block = True
                    break
                spans.append((i, k + len(bclose)))
                i = k + len(bclose)
                continue
            hit = False
            for mk in style.line:
                if line.startswith(mk, i) and (mk not in style.spaced or i == 0 or line[i - 1].isspace()):
                    spans.append((i, n))
                    hit = True
                    break
            if hit:
                break
            i += 1
        res.append(spans)
    return res


def comment_refs(lines, spans):
    out = []
    for no, (line, sp) in enumerate(zip(lines, spans), 1):
        for a, b in sp:
            seg = line[a:b]
            if "/" not in seg or "." not in seg:
                continue
            for m in PATH_TOKEN.finditer(seg):
                out.append(Ref("comment", m.group(1), no, a + m.start(1)))
    return out


def refs_of(prof, lines, fragment=False):
    """Every reference in a document's lines (fragment: lines out of
    context, as a diff shows them)."""
    out = []
    if prof.markup:
        out += {"md": markdown_refs, "html": html_refs, "rst": rst_refs, "adoc": adoc_refs}[prof.markup](lines, fragment)
    if prof.code or prof.comments:
        spans = comment_spans(lines, prof.comments, fragment) if prof.comments else [[] for _ in lines]
        if prof.code:
            out += code_refs(prof, lines, [mask(l, s) if s else l for l, s in zip(lines, spans)])
        if prof.comments:
            out += comment_refs(lines, spans)
    return out


# ---------------------------------------------------------------- targets

SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
TEMPLATE = ("{{", "{%", "$", "<%", "%>", "{#")
JS_EXTS = [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json", ".d.ts"]
JS_AS_TS = {".js": [".ts", ".tsx", ".d.ts"], ".jsx": [".tsx"], ".mjs": [".mts", ".d.mts"], ".cjs": [".cts", ".d.cts"]}
MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def clean_target(rule, query):
    """The path a reference names (fragment, query, <>, %-escapes and
    a title removed), or None when it names no file of the repository."""
    t = query.strip()
    if rule in ("md", "md_html") and t.startswith("<") and t.endswith(">"):
        t = t[1:-1].strip()
    if rule == "rst" and t.startswith("<") and t.endswith(">"):
        t = t[1:-1].strip()
    if not t or t.startswith("#") or t.startswith("?"):
        return None
    if SCHEME.match(t) or t.startswith("//") or t.startswith("\\\\"):
        return None
    if any(s in t for s in TEMPLATE):
        return None
    if rule == "md":
        t = MD_ESCAPE.sub(r"\1", t)
    t = t.split("#", 1)[0].split("?", 1)[0]
    if rule not in ("c", "comment", "sh"):
        t = urllib.parse.unquote(t, errors="surrogateescape")
    if not t or "node_modules/" in t or t.startswith("node_modules") or "\n" in t:
        return None
    if rule in ("html", "css", "scss", "less") and t.startswith("/"):
        return None  # a site path
    if rule in ("js", "sh", "comment", "c") and t.startswith("/"):
        return None
    if t.startswith("~"):
        return None
    return t


def norm(p):
    p = posixpath.normpath(p)
    if p in (".", "..") or p.startswith("../") or p.startswith("/"):
        return None
    return p


class Resolver:
    """Each language's rule: the paths a cleaned target may name, in the
    order the language tries them."""

    def __init__(self, tree, ever):
        known = set(tree.files) | ever
        dirs = set()
        for p in known:
            d = posixpath.dirname(p)
            while d and d not in dirs:
                dirs.add(d)
                d = posixpath.dirname(d)
        self.include_dirs = sorted(d for d in dirs if posixpath.basename(d) == "include")
        self.conf_dirs = {posixpath.dirname(p) for p in known if posixpath.basename(p) == "conf.py"}
        self._suffixes = None
        self.tree = tree

    def candidates(self, rule, doc, t):
        d = posixpath.dirname(doc)
        out = []
        if rule in ("md", "md_html"):
            out = [t.lstrip("/")] if t.startswith("/") else [posixpath.join(d, t)]
        elif rule == "rst" and t.startswith("/"):
            src = d
            while src and src not in self.conf_dirs:
                src = posixpath.dirname(src)
            out = [posixpath.join(src, t.lstrip("/")), t.lstrip("/")]
        elif rule in ("html", "rst", "adoc", "css"):
            out = [posixpath.join(d, t)]
        elif rule in ("scss", "less"):
            out = self._styles(rule, posixpath.join(d, t))
        elif rule == "c":
            out = [posixpath.join(d, t), t] + [posixpath.join(i, t) for i in self.include_dirs]
        elif rule == "js":
            out = self._js(posixpath.join(d, t), t.endswith("/"))
        elif rule in ("sh", "comment"):
            rel = posixpath.join(d, t)
            if t.startswith("./") or t.startswith("../"):
                out = [rel]
            else:  # a comment reads from the root first; `source` from its own directory, then the root
                out = [t, rel] if rule == "comment" else [rel, t]
        return [c for c in dict.fromkeys(norm(x) for x in out) if c]

    @staticmethod
    def _styles(rule, p):
        if rule == "less":
            return [p, p + ".less"]
        d, b = posixpath.split(p)
        if posixpath.splitext(b)[1] in (".scss", ".sass", ".css"):
            return [p, posixpath.join(d, "_" + b)]
        out = []
        for e in (".scss", ".sass", ".css"):
            out += [p + e, posixpath.join(d, "_" + b + e)]
        return out + [posixpath.join(p, "_index.scss"), posixpath.join(p, "index.scss"), p]

    @staticmethod
    def _js(p, is_dir):
        out = [] if is_dir else [p] + [p + e for e in JS_EXTS]
        stem, ext = posixpath.splitext(p)
        if not is_dir and ext in JS_AS_TS:
            out += [stem + e for e in JS_AS_TS[ext]]
        return out + [posixpath.join(p, "index" + e) for e in JS_EXTS]

    def dir_probes(self, rule, doc, t):
        """The paths that, being a directory, make the reference one to
        a directory."""
        cs = self.candidates(rule, doc, t)
        if rule == "js":
            p = norm(posixpath.join(posixpath.dirname(doc), t))
            return [p] if p else []
        if rule in ("scss", "less"):
            return []
        return cs

    def include_found_elsewhere(self, t):
        """A C include that some file at HEAD ends with (a -I path)."""
        if self._suffixes is None:
            self._suffixes = set()
            for p in self.tree.files:
                parts = p.split("/")
                for i in range(1, len(parts)):
                    self._suffixes.add("/".join(parts[i:]))
        n = posixpath.normpath(t)
        return not n.startswith("..") and n in self._suffixes


def state_at_head(resolver, tree, rule, doc, t):
    """'ok', 'dir', 'opaque' or 'broken'."""
    cands = resolver.candidates(rule, doc, t)
    if not cands:
        return "opaque"
    if any(c in tree.files for c in cands):
        return "ok"
    if any(c in tree.dirs for c in resolver.dir_probes(rule, doc, t)):
        return "dir"
    if any(tree.under_opaque(c) for c in cands):
        return "opaque"
    if rule == "c" and resolver.include_found_elsewhere(t):
        return "ok"
    return "broken"


# ---------------------------------------------------------------- documents at HEAD


def head_documents(git, tree, stats):
    """(path, text, profile) for each document at HEAD worth reading."""
    want = []
    for p, size in sorted(tree.sizes.items()):
        if size < 0:
            stats["documents unreadable"] += 1 if profile_of(p) else 0
            continue
        if size > MAX_DOC:
            stats["documents skipped (over 1 MiB)"] += 1 if profile_of(p) else 0
            continue
        if "node_modules/" in p or p.startswith("node_modules"):
            continue
        base = posixpath.basename(p)
        if profile_of(p) or ("." not in base and size > 2):
            want.append(p)
    for name, data in git.contents(["%s:%s" % (git.head, p) for p in want]):
        p = name[41:]
        if data is None:
            stats["documents unreadable"] += 1
            continue
        if b"\0" in data[:8192]:
            continue
        prof = profile_of(p, data[:200])
        if not prof:
            continue
        stats["documents read"] += 1
        yield p, data.decode("utf-8", "replace"), prof


# ---------------------------------------------------------------- blame


def parse_porcelain(out):
    """{final line: (commit, path at commit, orig line, previous)} where
    previous is (commit, path) or None."""
    res = {}
    info = {}
    cur = None
    for raw in out.split(b"\n"):
        if raw.startswith(b"\t"):
            if cur:
                sha, orig, final = cur
                fn, prev = info.get(sha, (None, None))
                res[final] = (sha, fn, orig, prev)
            continue
        parts = raw.split(b" ")
        if len(parts) >= 3 and len(parts[0]) == 40 and re.fullmatch(rb"[0-9a-f]{40}", parts[0]):
            cur = (parts[0].decode(), int(parts[1]), int(parts[2]))
        elif parts[0] == b"filename" and cur:
            fn, prev = info.get(cur[0], (None, None))
            info[cur[0]] = (path_str(raw[9:]), prev)
        elif parts[0] == b"previous" and cur and len(parts) >= 3:
            fn, _ = info.get(cur[0], (None, None))
            info[cur[0]] = (fn, (parts[1].decode(), path_str(raw[50:])))
    return res


def blame_lines(git, rev, path, lines):
    args = ["blame", "--porcelain"]
    for n in sorted(set(lines)):
        args += ["-L", "%d,%d" % (n, n)]
    try:
        return parse_porcelain(git.run(*args, rev, "--", path))
    except GitError:
        return None


class Item:
    """One reference being traced back: asked about `line` of `doc` at
    `rev`; when found, W, the document's path at W and the target then."""

    def __init__(self, key, rule, query, target, rev, doc, line):
        self.key, self.rule, self.query, self.target = key, rule, query, target
        self.rev, self.doc, self.line = rev, doc, line
        self.written = self.doc_then = self.target_then = None
        self.why = None


def trace_written(git, resolver, items, jobs, stats):
    """Blame each item's line; the target must have been a file when it
    was written.  Items end with target_then set, or with why set."""
    pending = list(items)
    for rnd in range(BLAME_ROUNDS + 1):
        if not pending:
            break
        groups = collections.defaultdict(list)
        for it in pending:
            groups[(it.rev, it.doc)].append(it)
        keys = sorted(groups)
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            results = list(ex.map(lambda k: blame_lines(git, k[0], k[1], [i.line for i in groups[k]]), keys))
        stats["blames run"] += len(keys)
        probes = []
        blamed = []
        for k, res in zip(keys, results):
            for it in groups[k]:
                b = res.get(it.line) if res else None
                if not b or not b[1]:
                    it.why = "blame failed"
                    continue
                it.written, it.doc_then, orig, it._prev = b[0], b[1], b[2], b[3]
                it._orig = orig
                it._cands = resolver.candidates(it.rule, it.doc_then, it.target)
                probes += ["%s:%s" % (it.written, c) for c in it._cands]
                blamed.append(it)
        types = git.object_types(probes)
        again = []
        for it in blamed:
            kinds = [types.get("%s:%s" % (it.written, c)) for c in it._cands]
            if "blob" in kinds:
                it.target_then = it._cands[kinds.index("blob")]
                continue
            it.why = "directory when written" if "tree" in kinds else "never valid"
            if rnd < BLAME_ROUNDS and it._prev and it.why == "never valid":
                again.append(it)
        pending = _older_versions(git, again, stats)
    return items


def _older_versions(git, items, stats):
    """Items whose line was last edited after the target had gone, but
    whose reference is older: the same text in the previous version."""
    if not items:
        return []
    names = sorted({"%s:%s" % it._prev for it in items})
    texts = {n: d.decode("utf-8", "replace").split("\n") for n, d in git.contents(names) if d is not None}
    out = []
    for it in items:
        lines = texts.get("%s:%s" % it._prev)
        if not lines:
            continue
        hits = [i + 1 for i, l in enumerate(lines) if it.query in l]
        if not hits:
            continue
        it.rev, it.doc = it._prev
        it.line = min(hits, key=lambda n: (abs(n - it._orig), n))
        it.why = None
        stats["blames retried on an older version"] += 1
        out.append(it)
    return out


# ---------------------------------------------------------------- cases


def stem(p):
    b = posixpath.basename(p)
    return b.rsplit(".", 1)[0] if "." in b[1:] else b


def replaced(old, new):
    return difflib.SequenceMatcher(None, stem(old).lower(), stem(new).lower()).ratio() < 0.5


def case(corpus, category, query, doc, line, outcome, chain, it, fix=None, agree=None):
    expected = outcome[1] if outcome[0] == "path" else None
    return {
        "id": None, "corpus": corpus, "kind": "resolve", "category": category, "query": query, "from": doc,
        "line": line, "expected": expected, "deleted_in": outcome[1] if outcome[0] == "deleted" else None,
        "accept_none": bool(expected and replaced(it.target_then, expected)),
        "written_in": it.written, "target_then": it.target_then,
        "beside": bool(expected and posixpath.dirname(expected) == posixpath.dirname(doc)),
        "fix": fix, "agree": agree, "chain": chain, "history": [],
    }


PER_TARGET = 3  # references to one target traced at most; one case per target kept


def spread(rng, groups, n):
    """Up to n (key, item) pairs sampled from {key: [items]}: the keys in
    random order, one item of each first, then a second of each, and so
    on, so that one target copied about many documents cannot fill the
    sample, yet a copy that was valid when written can stand in for one
    that was not."""
    keys = sorted(groups)
    rng.shuffle(keys)
    lists = {}
    for k in keys:
        items = list(groups[k])
        rng.shuffle(items)
        lists[k] = items[:PER_TARGET]
    out = []
    for rnd in range(PER_TARGET):
        for k in keys:
            if rnd < len(lists[k]):
                out.append((k, lists[k][rnd]))
    return out[:n]


def broken_at_head(git, tree, resolver, changes, chains, stats):
    """Every reference at HEAD whose target is no file, by category and
    target; those whose candidates (from the document's path now or any
    path it had before) never existed anywhere in history are counted
    as never valid and left out."""
    by_cat = collections.defaultdict(lambda: collections.defaultdict(list))
    formers = {}
    for doc, text, prof in head_documents(git, tree, stats):
        lines = text.split("\n")
        for r in refs_of(prof, lines):
            stats["references scanned"] += 1
            t = clean_target(r.rule, r.query)
            if t is None:
                stats["references skipped (URL, anchor, template, site path)"] += 1
                continue
            st = state_at_head(resolver, tree, r.rule, doc, t)
            if st != "broken":
                if st != "ok":
                    stats["references to a directory or beyond a submodule/symlink"] += 1
                continue
            stats["broken at HEAD"] += 1
            if doc not in formers:
                formers[doc] = chains[0].former_paths(doc)
            if not any(c in changes.ever for d in formers[doc] for c in resolver.candidates(r.rule, d, t)):
                stats["dropped: never valid"] += 1
                continue
            cat = CATEGORY[r.rule]
            by_cat[cat][resolver.candidates(r.rule, doc, t)[0]].append((doc, r, t))
    return by_cat


def head_cases(git, head, corpus, tree, resolver, changes, chains, per, jobs, stats):
    """Broken references at HEAD traced to when they were written and
    followed to HEAD: at most `per` per category, one per target."""
    broken = broken_at_head(git, tree, resolver, changes, chains, stats)
    items = []
    for cat in sorted(broken):
        for n, (key, (doc, r, t)) in enumerate(spread(random.Random(1), broken[cat], 3 * per)):
            it = Item((cat, n), r.rule, r.query, t, head, doc, r.line)
            it.head_doc, it.target_key = doc, key
            items.append(it)
    trace_written(git, resolver, items, jobs, stats)
    return keep_cases(items, per, chains, tree, stats, lambda it, outcome, chain: case(
        corpus, it.key[0], it.query, it.head_doc, it.line, outcome, chain, it))


def keep_cases(items, per, chains, tree, stats, make, prefix=""):
    """The traced items that make cases, in sampled order: valid when
    written, followable, the first for their target, `per` a category."""
    cases = collections.defaultdict(list)
    done = set()
    for it in sorted(items, key=lambda i: i.key):
        cat = it.key[0]
        if (cat, it.target_key) in done:
            continue
        if it.target_then is None:
            why = "never valid" if it.why in ("never valid", "directory when written") else it.why
            stats[prefix + "dropped: " + why] += 1
            continue
        outcome, chain = truth(chains, it.target_then, it.written, tree.files, stats)
        if outcome is None:
            stats[prefix + "dropped: unfollowable"] += 1
            continue
        c = make(it, outcome, chain)
        if c is None:
            continue
        done.add((cat, it.target_key))
        if len(cases[cat]) < per:
            cases[cat].append(c)
    return cases


# ---------------------------------------------------------------- corrections

HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def prefix_len(a, b):
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def small_change(r, a):
    """Lines differing in one short run of characters only."""
    if r == a:
        return False
    p = prefix_len(r, a)
    s = prefix_len(r[p:][::-1], a[p:][::-1])
    return len(r) - p - s <= 300 and len(a) - p - s <= 300


def pairs_of_hunk(removed, added):
    if len(removed) == len(added):
        return [(r, a) for r, a in zip(removed, added) if small_change(r[1], a[1])]
    if len(removed) * len(added) > 64:
        return []
    return [(r, a) for r in removed for a in added if small_change(r[1], a[1])]


def one_target_changed(prof, rline, aline):
    """(rule, A, B) when the lines are the same but for one reference's
    target, else None."""
    rr = refs_of(prof, [rline], fragment=True)
    if not rr:
        return None
    ar = refs_of(prof, [aline], fragment=True)
    for x in rr:
        for y in ar:
            if x.rule == y.rule and x.query != y.query and x.col == y.col \
                    and rline[:x.col] == aline[:y.col] and rline[x.col + len(x.query):] == aline[y.col + len(y.query):]:
                return x.rule, x.query, y.query
    return None


def diff_pairs(lines, wanted):
    """(commit, parent, doc, old line no, removed text, added text) for
    paired changed lines in `git log -p -U0 --format=%x01%H %P` output."""
    commit = parent = doc = None
    removed, added = [], []
    need_r = need_a = old_no = 0
    for line in lines:
        if need_r and line[:1] == b"-":
            if doc:
                removed.append((old_no + len(removed), line[1:].rstrip(b"\n")))
            need_r -= 1
            continue
        if need_a and not need_r and line[:1] == b"+":
            if doc:
                added.append((0, line[1:].rstrip(b"\n")))
            need_a -= 1
            continue
        if line[:1] == b"\\":  # "\ No newline at end of file"
            continue
        need_r = need_a = 0
        if removed and added and doc:
            for (n, r), (_, a) in pairs_of_hunk(removed, added):
                yield commit, parent, doc, n, r, a
        if removed or added:
            removed, added = [], []
        if line.startswith(b"\x01"):
            f = line[1:].split()
            commit, parent = f[0].decode(), (f[1].decode() if len(f) > 1 else None)
            doc = None
        elif line.startswith(b"+++ "):
            rest = line[4:].rstrip(b"\n")
            doc = path_str(rest[2:]) if rest.startswith(b"b/") else None
            if doc is not None and not wanted(doc):
                doc = None
        elif line.startswith(b"@@"):
            m = HUNK.match(line)
            if m:
                old_no = int(m.group(1))
                need_r = int(m.group(2)) if m.group(2) is not None else 1
                need_a = int(m.group(4)) if m.group(4) is not None else 1
    if removed and added and doc:
        for (n, r), (_, a) in pairs_of_hunk(removed, added):
            yield commit, parent, doc, n, r, a


def fix_log(git, n_commits, stats):
    """The -U0 diff lines of the files the newest commits modify (no
    pathspec: git matches a long list of them slowly; the caller picks
    the documents).  If the store lacks a blob one of them needs, the log
    is taken up again after the commits already read, leaving out those
    that need a missing blob."""
    base = ["log", "-p", "--no-merges", "--no-renames", "--diff-filter=M", "-U0", "--no-color", "--no-ext-diff",
            "--no-textconv", "--format=%x01%H %P"]
    done = set()
    try:
        for line in git.stream(*base, "-n", str(n_commits), git.head, "--"):
            if line.startswith(b"\x01"):
                done.add(line[1:].split()[0].decode())
            yield line
        return
    except GitError as e:
        if "unable to read" not in str(e):
            raise
    raw = git.run("log", "--raw", "--no-renames", "--no-abbrev", "--no-merges", "--diff-filter=M", "-z",
                  "--format=%x01%H", "-n", str(n_commits), git.head, "--")
    order, needs = [], collections.defaultdict(set)
    for c, st, path, old, new in parse_raw_log([raw]):
        if not order or order[-1] != c:
            order.append(c)
        needs[c] |= {b for b in (old, new) if set(b) != {"0"}}
    have = git.object_types(sorted({b for bs in needs.values() for b in bs}))
    good = [c for c in order if all(have.get(b) for b in needs[c])]
    stats["fix scan: commits left out (missing blob)"] = len(order) - len(good)
    rest = [c for c in good if c not in done]
    if rest:
        yield from git.stream(*base, "--no-walk=unsorted", "--stdin", stdin="".join(c + "\n" for c in rest).encode())


def find_fixes(git, resolver, n_commits, budget, stats):
    """Corrections: A -> B where A named no file in the parent and B
    names one in the commit, grouped by (rule, A's path, B's path): the
    same correction made in many documents is one fix."""
    found = collections.defaultdict(list)
    batch, profiles = [], {}

    def check(batch):
        probes = []
        for f in batch:
            probes += ["%s:%s" % (f["parent"], c) for c in f["a_cands"]]
            probes += ["%s:%s" % (f["commit"], c) for c in f["b_cands"]]
        types = git.object_types(probes)
        for f in batch:
            if any(types.get("%s:%s" % (f["parent"], c)) for c in f["a_cands"]):
                continue  # A still named something: not a repair
            bk = [types.get("%s:%s" % (f["commit"], c)) for c in f["b_cands"]]
            if "blob" not in bk:
                continue
            f["b_path"] = f["b_cands"][bk.index("blob")]
            found[(f["rule"], f["a_cands"][0], f["b_path"])].append(f)

    def wanted(doc):
        if doc not in profiles:
            profiles[doc] = profile_of(doc)
        return bool(profiles[doc])

    stream = fix_log(git, n_commits, stats)
    try:
        for commit, parent, doc, old_no, r, a in diff_pairs(stream, wanted):
            if parent is None:
                continue
            prof = profiles[doc]
            rl, al = r.decode("utf-8", "replace"), a.decode("utf-8", "replace")
            hit = one_target_changed(prof, rl, al)
            if not hit:
                continue
            rule, qa, qb = hit
            ta, tb = clean_target(rule, qa), clean_target(rule, qb)
            if ta is None or tb is None:
                continue
            ac, bc = resolver.candidates(rule, doc, ta), resolver.candidates(rule, doc, tb)
            if not ac or not bc or set(ac) & set(bc):
                continue
            stats["fixes: changed targets seen"] += 1
            batch.append({"commit": commit, "parent": parent, "doc": doc, "line": old_no, "rule": rule,
                          "a": qa, "ta": ta, "b": qb, "a_cands": ac, "b_cands": bc})
            if len(batch) >= 500:
                check(batch)
                batch = []
                if len(found) >= budget:
                    break
    finally:
        stream.close()
    if batch:
        check(batch)
    stats["fixes found"] = len(found)
    stats["fixes: the same correction in more places"] = sum(len(v) - 1 for v in found.values())
    return found


def fixed_cases(git, corpus, tree, resolver, chains, per, jobs, n_commits, stats):
    """Corrections people made, asked at HEAD: A traced to when it was
    written and followed to HEAD (expected), B followed from the fix to
    HEAD (fix)."""
    fixes = find_fixes(git, resolver, n_commits, 20 * per, stats)
    by_cat = collections.defaultdict(dict)
    for key, fs in fixes.items():
        by_cat[CATEGORY[key[0]] + "_fixed"][key] = sorted(fs, key=lambda f: (f["commit"], f["doc"], f["line"], f["a"]))
    items = []
    for cat in sorted(by_cat):
        for n, (key, f) in enumerate(spread(random.Random(1), by_cat[cat], 3 * per)):
            it = Item((cat, n), f["rule"], f["a"], f["ta"], f["parent"], f["doc"], f["line"])
            it.fixinfo, it.target_key = f, key
            items.append(it)
    trace_written(git, resolver, items, jobs, stats)
    agreed = []

    def make(it, outcome, chain):
        f = it.fixinfo
        doc_out, _ = truth(chains, f["doc"], f["commit"], tree.files, stats)
        if not doc_out or doc_out[0] != "path":
            stats["fixes dropped: document gone at HEAD"] += 1
            return None
        doc = doc_out[1]
        if state_at_head(resolver, tree, it.rule, doc, it.target) != "broken":
            stats["fixes dropped: A names a file (or directory) at HEAD"] += 1
            return None
        b_out, _ = truth(chains, f["b_path"], f["commit"], tree.files, stats)
        fix = b_out[1] if b_out and b_out[0] == "path" else None
        expected = outcome[1] if outcome[0] == "path" else None
        agreed.append(expected == fix)
        return case(corpus, it.key[0], it.query, doc, None, outcome, chain, it, fix, expected == fix)

    cases = keep_cases(items, per, chains, tree, stats, make, prefix="fixes ")
    stats["fixes followed"] = len(agreed)
    stats["fixes agreeing"] = sum(agreed)
    return cases


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("gitdir")
    ap.add_argument("corpus")
    ap.add_argument("--max", type=int, default=60, help="cases per category (default 60)")
    ap.add_argument("--fix-commits", type=int, default=20000, help="newest commits searched for corrections")
    ap.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)), help="parallel blames")
    args = ap.parse_args()
    t0 = time.time()
    stats = collections.Counter()
    git = Git(args.gitdir)
    head = git.run("rev-parse", "--verify", "HEAD^{commit}").decode().strip()
    git.head = head
    tree = Tree(git, head)
    commits = Commits(git, head)
    changes = Changes(git, commits)
    changes.ever |= set(tree.files)
    chains = build_chains(git, commits, changes, stats)
    resolver = Resolver(tree, changes.ever)
    stats["seconds: history"] = round(time.time() - t0, 1)
    cases = head_cases(git, head, args.corpus, tree, resolver, changes, chains, args.max, args.jobs, stats)
    stats["seconds: references at HEAD"] = round(time.time() - t0, 1)
    cases.update(fixed_cases(git, args.corpus, tree, resolver, chains, args.max, args.jobs,
                             args.fix_commits, stats))
    out = []
    for cat in sorted(cases):
        for n, c in enumerate(sorted(cases[cat], key=lambda c: (c["from"], c["line"] or 0, c["query"]))):
            c["id"] = "%s/links/%s/%d" % (args.corpus, cat, n)
            out.append(c)
            stats["kept: " + cat] += 1
    for c in out:
        print(json.dumps(c))
    stats["seconds: total"] = round(time.time() - t0, 1)
    report(args.corpus, head, stats)


def report(corpus, head, stats):
    w = sys.stderr.write
    w("%s at %s\n" % (corpus, head[:12]))
    for k in ("references scanned", "broken at HEAD", "dropped: never valid", "dropped: unfollowable",
              "fixes found", "fixes followed", "fixes agreeing"):
        w("  %-58s %s\n" % (k, stats.get(k, 0)))
    if stats.get("fixes followed"):
        w("  %-58s %.0f%%\n" % ("agreement rate", 100.0 * stats["fixes agreeing"] / stats["fixes followed"]))
    for k in sorted(stats):
        if k.startswith("kept: "):
            w("  %-58s %s\n" % (k, stats[k]))
    for k in sorted(stats):
        if not k.startswith("kept: ") and k not in ("references scanned", "broken at HEAD", "dropped: never valid",
                                                    "dropped: unfollowable", "fixes found", "fixes followed",
                                                    "fixes agreeing"):
            w("  %-58s %s\n" % (k, stats[k]))


if __name__ == "__main__":
    main()
