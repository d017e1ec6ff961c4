#!/usr/bin/env python3
"""Writes locate's question set for one real source tree (JSON lines).

    genlocate.py --root TREE --files LIST [--per 60] [--seed 1]

LIST holds the tree's indexed files, one relative path a line (what
`wayfind-bench locate` passes: the workspace's own listing, so ignore
rules are the product's). Three kinds of question, as agents ask them:

  definition  a name universal-ctags finds defined in exactly one file
              ("where is ServeMux defined", "find parseTime", "Decoder")
  words       the same kind of name written as lower-case words
              ("serve mux", "find read file"); expected: its one file
  phrase      4-7 words of a comment or string found in exactly one file,
              as grep -rlF finds it (case-sensitive, fixed string)

Deterministic for a tree and a seed: candidates are sorted, then sampled.
Each case carries the grep-style agent's command for the peer.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys

# Kinds of definition an agent asks about (ctags' long names, Go and Python
# and the C family); variables and constants are names too, but an agent
# asks where a type or a function is.
KINDS = {"func", "function", "method", "member", "struct", "interface", "type",
         "class", "talias", "typedef", "union", "enum", "macro"}

TEMPLATES = {
    "definition": ["where is {} defined", "where is {} implemented", "{}", "find {}", "where is {}"],
    "words": ["find {}", "where is {}", "{}", "where is {} implemented"],
    "phrase": ['where is "{}" handled', "find {}", '"{}"', "where is `{}`"],
}


def words_of(name):
    """A name's words, as a person would type them: camel humps and
    underscores become spaces, all lower-case."""
    parts = []
    for chunk in re.split(r"[_\W]+", name):
        parts += re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+", chunk)
    return [p.lower() for p in parts if p]


def is_binary(b):
    return b"\0" in b[:8000]


def comment_texts(line):
    """The prose of a line: a comment's text or a string literal's."""
    s = line.strip()
    out = []
    for lead in ("//", "#", "*", "/*"):
        if s.startswith(lead):
            out.append(s[len(lead):].strip())
            break
    out += re.findall(r'"([^"\\\n]{20,})"', line)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--files", required=True)
    ap.add_argument("--per", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--name", default="")
    a = ap.parse_args()
    name = a.name or os.path.basename(os.path.normpath(a.root))
    files = sorted(l.rstrip("\n") for l in open(a.files, encoding="utf-8") if l.strip())
    texts = {}
    for f in files:
        try:
            with open(os.path.join(a.root, f), "rb") as fh:
                b = fh.read()
        except OSError:
            continue
        if not is_binary(b):
            texts[f] = b

    # Definitions: every tag of every kind counts towards "defined in one
    # file", so a name also declared elsewhere (a variable, a field) is out.
    out = subprocess.run(["ctags", "-L", "-", "-f", "-", "--output-format=json", "--fields=+K", "--langmap=Python:+.pyi"],
                         cwd=a.root, input="\n".join(texts).encode(), capture_output=True, check=True).stdout
    where, kinds = {}, {}
    for line in out.splitlines():
        try:
            t = json.loads(line)
        except ValueError:
            continue
        if t.get("_type") != "tag":
            continue
        n = t["name"]
        where.setdefault(n, set()).add(t["path"])
        kinds.setdefault(n, set()).add(t.get("kind", ""))
    names = sorted(n for n, ps in where.items()
                   if len(ps) == 1 and kinds[n] & KINDS and len(n) >= 4 and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n)
                   and not n.startswith(("AnonymousFunction", "__anon"))  # ctags' names for the nameless
                   and "/testdata/" not in "/" + next(iter(ps)) and any(c.isalpha() for c in n.strip("_")))
    rng = random.Random(a.seed)
    cases = []

    def emit(cat, i, query, expected, grep):
        cases.append({"id": f"{name}/{cat}/{i}", "tree": name, "category": cat, "query": query,
                      "expected": expected, "grep": grep})

    for i, n in enumerate(rng.sample(names, min(a.per, len(names)))):
        emit("definition", i, TEMPLATES["definition"][i % 5].format(n), next(iter(where[n])), ["-rlw", "--", n])
    # Words: the name written as words must name one file however it is
    # cased or joined (withAttrs and WithAttrs are one question), and each
    # word must be the tree's vocabulary — in at least 20 of its names —
    # not an abbreviation nobody would type as a word (usra, asisdshf).
    squashed = {}
    for n, ps in where.items():
        squashed.setdefault(n.lower().replace("_", ""), set()).update(ps)
    vocab = {}
    for n in where:
        for w in set(words_of(n)):
            vocab[w] = vocab.get(w, 0) + 1
    multi = [n for n in names if 2 <= len(words_of(n)) <= 4
             and len(squashed[n.lower().replace("_", "")]) == 1
             and all(w.isalpha() and len(w) >= 2 and vocab[w] >= 20 for w in words_of(n))]
    for i, n in enumerate(rng.sample(multi, min(a.per, len(multi)))):
        w = words_of(n)
        pattern = "[ _-]?".join(re.escape(x) for x in w)
        emit("words", i, TEMPLATES["words"][i % 4].format(" ".join(w)), next(iter(where[n])), ["-rliE", "--", pattern])

    # Phrases: files in a shuffled order, one phrase a file at most.
    order = sorted(texts)
    rng.shuffle(order)
    got = 0
    for f in order:
        if got >= a.per:
            break
        try:
            lines = texts[f].decode("utf-8").splitlines()
        except UnicodeDecodeError:
            continue
        prose = [t for l in lines for t in comment_texts(l)]
        prose = [t for t in prose if len(t.split()) >= 4 and '"' not in t and "`" not in t]
        if not prose:
            continue
        text = prose[rng.randrange(len(prose))]
        toks = list(re.finditer(r"\S+", text))
        k = rng.randint(4, 7)
        if len(toks) < k:
            k = len(toks)
        s = rng.randrange(len(toks) - k + 1)
        phrase = text[toks[s].start():toks[s + k - 1].end()].strip(".,;:()")
        if len(phrase) < 15 or sum(1 for t in phrase.split() if re.search(r"[A-Za-z]{2}", t)) < 3:
            continue
        needle = phrase.encode()
        holders = [g for g, b in texts.items() if needle in b]
        if holders != [f]:
            continue
        emit("phrase", got, TEMPLATES["phrase"][got % 4].format(phrase), f, ["-rlF", "--", phrase])
        got += 1
    for c in cases:
        print(json.dumps(c))
    print(f"{name}: {sum(c['category'] == 'definition' for c in cases)} definitions, "
          f"{sum(c['category'] == 'words' for c in cases)} words, {got} phrases", file=sys.stderr)


if __name__ == "__main__":
    main()
