#!/usr/bin/env python3
"""The calibration corpus (issue 45) from git mirrors of the repositories
testdata/calibration/split.tsv names:

    python3 scripts/gencalibration.py MIRRORS [OUT] [--only OWNER/NAME] [--logs MAXBYTES] [--links-only | --no-links]

MIRRORS holds one git directory per repository, as `fetch` lays them out
(MIRRORS/OWNER+NAME/repo) or as plain clones (MIRRORS/OWNER+NAME); each
is read at the HEAD split.tsv records (it must have that commit). For each
repository it writes, under OUT/OWNER__NAME/ (default
testdata/calibration):

  listing.tsv.gz  HEAD's files and sizes (what the names-only runs lay out)
  stale.jsonl.gz  real stale paths: git's renames followed to HEAD, as
                  written and as held (scripts/genmoves.py)
  links.jsonl.gz  real broken references in documents and comments, when
                  scripts/genlinks.py is there (its docstring: the method)
  log.gz, head    the history as the replay reads it (`git log -M
                  --name-status --no-merges`, authors hashed), only when it
                  compresses to at most MAXBYTES (--logs; default: none
                  kept): what is too big to keep is read from the mirrors

Nothing else is kept: no file's text. Deterministic for the same mirror.
"""
import gzip, hashlib, importlib.util, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
PER_CATEGORY = 100  # stale paths per category (as written; as held adds two in three)


def load(name):
    path = os.path.join(HERE, name + ".py")
    if not os.path.exists(path):
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def split(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        repo, lang, files, commits, head, half = line.rstrip("\n").split("\t")
        rows.append(dict(repo=repo, lang=lang, head=head, half=half))
    return rows


def mirror(mirrors, repo):
    for d in (os.path.join(mirrors, repo.replace("/", "+"), "repo"), os.path.join(mirrors, repo.replace("/", "+"))):
        if os.path.isdir(d):
            return d
    return None


def write_gz(path, lines):
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as f:
        f.write("".join(lines))
    os.utime(path, (0, 0))


def hashed_log(git_dir, head):
    """The replay's log, newest first, each author a short hash."""
    out = subprocess.run(["git", "-C", git_dir, "-c", "core.quotePath=false", "log", "-M", "--name-status", "--no-merges",
                          "--format=@%H %at %ae", head], capture_output=True)
    if out.returncode != 0:
        return None  # a store missing blobs: the replay cannot be made from it
    lines = []
    for l in out.stdout.decode("utf-8", "replace").splitlines(keepends=True):
        if l.startswith("@"):
            h, t, a = (l[1:].rstrip("\n").split(" ", 2) + ["", ""])[:3]
            # The replay leaves bots out of sessions (sessions.go's botAuthor).
            bot = "[bot]" if "[bot]" in a or a.startswith(("dependabot", "renovate", "github-actions")) else ""
            l = f"@{h} {t} {hashlib.sha256(a.encode()).hexdigest()[:10]}{bot}\n"
        lines.append(l)
    return lines


def main():
    args = sys.argv[1:]
    only = args[args.index("--only") + 1] if "--only" in args else None
    max_log = int(args[args.index("--logs") + 1]) if "--logs" in args else 0
    pos = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or not args[i - 1].startswith("--"))]
    mirrors = pos[0]
    out_dir = pos[1] if len(pos) > 1 else os.path.join(TOP, "testdata", "calibration")
    moves = load("genmoves")
    for row in split(os.path.join(TOP, "testdata", "calibration", "split.tsv")):
        repo = row["repo"]
        if only and repo != only:
            continue
        src = mirror(mirrors, repo)
        if src is None:
            print(f"{repo}: no mirror under {mirrors}", file=sys.stderr)
            continue
        have = subprocess.run(["git", "-C", src, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        if have != row["head"]:
            print(f"{repo}: the mirror's HEAD is {have[:12]}, split.tsv records {row['head'][:12]}: skipped", file=sys.stderr)
            continue
        name = repo.replace("/", "__")
        dst = os.path.join(out_dir, name)
        os.makedirs(dst, exist_ok=True)
        msg = repo
        if "--links-only" not in args:
            cases, listing = moves.cases(src, name, PER_CATEGORY)
            write_gz(os.path.join(dst, "listing.tsv.gz"), [f"{p}\t{s}\n" for p, s in listing.items()])
            write_gz(os.path.join(dst, "stale.jsonl.gz"), [json.dumps(c) + "\n" for c in cases])
            msg += f": {len(listing)} files, {len(cases)} stale paths"
        if os.path.exists(os.path.join(HERE, "genlinks.py")) and "--no-links" not in args:
            out = subprocess.run([sys.executable, os.path.join(HERE, "genlinks.py"), src, name], capture_output=True, text=True)
            if out.returncode != 0:
                print(f"{repo}: genlinks failed: {out.stderr.strip()[-400:]}", file=sys.stderr)
            else:
                found = [l + "\n" for l in out.stdout.splitlines() if l.strip()]
                write_gz(os.path.join(dst, "links.jsonl.gz"), found)
                msg += f", {len(found)} broken references"
        if max_log:
            log = hashed_log(src, row["head"])
            path = os.path.join(dst, "log.gz")
            if log is not None:
                write_gz(path, log)
            if log is None or os.path.getsize(path) > max_log:
                if os.path.exists(path):
                    os.remove(path)
                msg += ", log not kept"
            else:
                with open(os.path.join(dst, "head"), "w") as f:
                    f.write(row["head"] + "\n")
                msg += f", log {os.path.getsize(path) >> 10} KiB"
        print(msg, file=sys.stderr)


if __name__ == "__main__":
    main()
