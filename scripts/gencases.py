#!/usr/bin/env python3
"""Generate benchmark cases like ../shared/bench's over any corpus.

The public cases cover four corpora; the hidden set covers others. This
makes cases of the same categories over the remaining corpora so that the
engine is checked on trees it was never tuned on:

    python3 scripts/gencases.py ../shared/corpora babel__babel ansible__ansible > /tmp/gen.jsonl
    go run ./cmd/wayfind-bench find -cases /tmp/gen.jsonl -fzf=false

A case is emitted only when it has one right answer a careful person would
agree on (for example a typo that lands on exactly one name).
"""
import collections, gzip, json, os, random, re, sys, zlib

EXT_SWAP = {"js": "ts", "ts": "js", "tsx": "jsx", "jsx": "tsx", "py": "rs", "rs": "py", "go": "py",
            "yml": "yaml", "yaml": "yml", "h": "hpp", "c": "cpp", "sh": "bash", "java": "kt", "kt": "java",
            "json": "json5", "md": "markdown", "mjs": "js", "cjs": "js"}

def load(corpora, name):
    p = os.path.join(corpora, name + ".tsv")
    f = open(p, encoding="utf-8") if os.path.exists(p) else gzip.open(p + ".gz", "rt", encoding="utf-8")
    return [l.split("\t")[0] for l in f if l.strip()]

def words(s):
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", s)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", s) if w]

def typo(rng, s):
    i = rng.randrange(1, len(s) - 1)
    k = rng.choice("idst")
    if k == "i": return s[:i] + rng.choice("aeioustrn") + s[i:]
    if k == "d": return s[:i] + s[i + 1:]
    if k == "s": return s[:i] + rng.choice("aeioustrn") + s[i + 1:]
    return s[:i] + s[i + 1] + s[i] + s[i + 2:]

def main():
    corpora, names = sys.argv[1], sys.argv[2:]
    rng = random.Random(42)
    for name in names:
        paths = load(corpora, name)
        pset = set(paths)
        by_base = collections.defaultdict(list)
        for p in paths:
            by_base[p.rsplit("/", 1)[-1]].append(p)
        squashed = collections.Counter(re.sub(r"[^a-z0-9]", "", p.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()) for p in paths)
        unique = [p for p in paths if len(by_base[p.rsplit("/", 1)[-1]]) == 1 and len(p.rsplit("/", 1)[-1].rsplit(".", 1)[0]) >= 6 and "." in p.rsplit("/", 1)[-1]]
        deep = [p for p in unique if p.count("/") >= 2]
        dirs = sorted({p.rsplit("/", 1)[0] for p in paths if "/" in p})
        n = collections.Counter()
        out = []
        def emit(kind, cat, q, exp, hist=()):
            if n[(kind, cat)] >= (30 if cat == "no_match" else 12): return
            n[(kind, cat)] += 1
            out.append({"id": f"{name}/{kind[0]}/{cat}/{n[(kind, cat)]}", "corpus": name, "kind": kind,
                        "category": cat, "query": q, "expected": exp, "history": list(hist)})
        for _ in range(4000):
            p = rng.choice(deep or unique)
            d, base = p.rsplit("/", 1)
            stem, ext = base.rsplit(".", 1)
            sq = re.sub(r"[^a-z0-9]", "", stem.lower())
            c = rng.choice(["typo", "wrong_ext", "missing_prefix", "abs_path", "style", "bare_unique",
                            "moved", "exact", "wrong_depth", "line_suffix", "squashed", "words", "camel", "regex_words", "squashed_typo"])
            if c == "typo":
                t = typo(rng, stem)
                tsq = re.sub(r"[^a-z0-9]", "", t.lower())
                if t != stem and tsq not in squashed and f"{d}/{t}.{ext}" not in pset:
                    emit("resolve", c, f"{d}/{t}.{ext}", p)
            elif c == "wrong_ext" and ext in EXT_SWAP and f"{d}/{stem}.{EXT_SWAP[ext]}" not in pset:
                emit("resolve", c, f"{d}/{stem}.{EXT_SWAP[ext]}", p)
            elif c == "missing_prefix":
                emit("resolve", c, p.split("/", 1)[1], p)
            elif c == "abs_path":
                emit("resolve", c, rng.choice(["/home/dev/" + name.split("__")[1] + "/" + p, "C:\\src\\" + p.replace("/", "\\")]), p)
            elif c == "style" and len(words(stem)) >= 2:
                w = words(stem)
                alt = w[0] + "".join(x.title() for x in w[1:]) if ("_" in stem or "-" in stem) else "_".join(w)
                if alt != stem:
                    emit("resolve", c, f"{d}/{alt}.{ext}", p)
            elif c == "bare_unique":
                emit("resolve", c, base, p)
            elif c == "moved":
                emit("resolve", c, rng.choice(["tmp", "old", "scratch"]) + "/" + base, p)
            elif c == "exact":
                emit("resolve", c, p, p)
            elif c == "line_suffix":
                emit("resolve", c, p + rng.choice([":17", ":3:9", "#L40", "(12,5)"]), p)
            elif c == "wrong_depth":
                parts = p.split("/")
                i = rng.randrange(1, len(parts) - 1)
                q = "/".join(parts[:i] + ["extra"] + parts[i:])
                emit("resolve", c, q, p)
            elif c == "squashed" and squashed[sq] == 1:
                emit("find", c, sq, p)
            elif c == "squashed_typo" and squashed[sq] == 1 and len(sq) >= 10:
                emit("find", c, typo(rng, sq), p)
            elif c == "words" and squashed[sq] == 1 and len(words(stem)) >= 2:
                emit("find", c, " ".join(words(stem)), p)
            elif c == "camel" and squashed[sq] == 1 and len(words(stem)) >= 2:
                emit("find", c, "".join(x.title() for x in words(stem)), p)
            elif c == "regex_words" and squashed[sq] == 1 and len(words(stem)) >= 2:
                emit("find", c, "[ _-]?".join(words(stem)), p)
        # ambiguous names decided by history: two files visited beside the expected one
        for base, ps in by_base.items():
            if 2 <= len(ps) <= 40 and n[("resolve", "bare_history")] < 12:
                p = rng.choice(ps)
                d = p.rsplit("/", 1)[0] if "/" in p else ""
                sib = [x for x in paths if x.rsplit("/", 1)[0] == d and x != p][:2]
                if len(sib) == 2 and all(not any(y.rsplit("/", 1)[0] == d for y in ps if y != p) for _ in [0]):
                    emit("resolve", "bare_history", base, p, sib)
        for w in ["quantum_flux.py", "src/marmalade_engine.rs", "internal/zebra_plasma.go", "lib/saffron_wombat.ts"]:
            emit("resolve", "nonexistent", w, None)
        path_cases(name, paths, random.Random(zlib.crc32(name.encode())), emit)
        for o in out:
            print(json.dumps(o))

def squash(s):
    return re.sub(r"[^a-z0-9]", "", s.lower())

def split_path(p):
    """A path as find reads it: (directory words, name words), lower case."""
    parts = p.split("/")
    base = parts[-1]
    stem, ext = (base.rsplit(".", 1) + [""])[:2] if "." in base[1:] else (base, "")
    dirs = [w for c in parts[:-1] for w in words(c)]
    name = words(stem) + ([squash(ext)] if squash(ext) else [])
    return dirs, name

def reads(tok, ws, need_name, first_name):
    """Whether tok cuts into prefixes of ws taken left to right (any skipped);
    with need_name the last prefix is a word at index >= first_name."""
    memo = {}
    def go(i, j):
        if i == len(tok):
            return True
        if (i, j) in memo:
            return memo[(i, j)]
        ok = False
        for k in range(j, len(ws)):
            w = ws[k]
            l = 0
            while l < len(w) and i + l < len(tok) and tok[i + l] == w[l]:
                l += 1
                if i + l == len(tok) and need_name and k < first_name:
                    continue
                if go(i + l, k + 1):
                    ok = True
                    break
            if ok:
                break
        memo[(i, j)] = ok
        return ok
    return go(0, 0)

def fits(query, p, cache):
    """find's word-prefix reading: every white-space token reads across the
    path, in any order, and at least one token ends in the file name."""
    if p not in cache:
        d, n = split_path(p)
        cache[p] = (d + n, len(d), set("".join(d + n)))
    ws, first_name, chars = cache[p]
    toks = [squash(t) for t in query.split() if squash(t)]
    if not set("".join(toks)) <= chars:
        return False
    if not all(reads(t, ws, False, first_name) for t in toks):
        return False
    return any(reads(t, ws, True, first_name) for t in toks)

ENGLISH = """apple banana cherry garden window river mountain pencil candle bottle
ladder blanket kitten rabbit turtle violin trumpet guitar helmet jacket pillow
carpet saddle tunnel castle harbor meadow orchard valley canyon island desert
forest glacier volcano thunder rainbow blossom pebble marble velvet cotton
silver copper bronze crystal diamond emerald sapphire walnut almond pepper
ginger cinnamon vanilla lemonade pancake muffin biscuit noodle dumpling
sandwich picnic holiday journey voyage lantern compass anchor harpoon
sailor pirate captain dragon unicorn wizard goblin giant dwarf knight
princess kingdom empire village cottage chimney balcony hallway kitchen
bathroom cellar attic furnace kettle saucer teapot napkin spoon ladle
whisker feather antler hoof paw tusk mane pouch nest burrow""".split()

def path_cases(name, paths, rng, emit):
    """The three categories that span directory and name, and queries that
    must find nothing; each find case has exactly one file it fits."""
    cache = {}
    unique = lambda q, p: [x for x in paths if fits(q, x, cache)] == [p]
    deep = [p for p in paths if p.count("/") >= 1 and "node_modules/" not in p and "/.git/" not in p and "__pycache__" not in p]
    for _ in range(600 if deep else 0):  # a tree that is all node_modules has none
        p = rng.choice(deep)
        parts = p.split("/")
        last = words(parts[-2])
        d, n = split_path(p)
        stemw = n[:-1] if "." in parts[-1][1:] and squash(parts[-1].rsplit(".", 1)[1]) else n
        if not last or not stemw:
            continue
        c = rng.choice(["path_squashed", "path_abbrev", "path_words"])
        if c == "path_squashed":
            q = "".join(last) + "".join(stemw[:rng.choice([1, 2])])
        elif c == "path_abbrev":
            ws = [last[0]] + stemw[:rng.choice([1, 2, 3])]
            if len(ws) < 2 or any(len(w) < 2 for w in ws):
                continue
            q = "".join(w[:rng.choice([2, 3, 3, 4])] for w in ws)
        else:
            q = rng.choice(last) + " " + rng.choice(stemw)
        if len(squash(q)) >= 4 and unique(q, p):
            emit("find", c, q, p)
    letters = "abcdefghijklmnopqrstuvwxyz"
    sqpaths = [squash(x) for x in paths]
    sqstems = {squash(x.rsplit("/", 1)[-1].rsplit(".", 1)[0]) for x in paths}
    def absent(q):
        if any(q in x for x in sqpaths) or any(fits(q, x, cache) for x in paths):
            return False
        budget = 1 if len(q) <= 8 else 2
        return not any(abs(len(s) - len(q)) <= budget and lev(q, s) <= budget for s in sqstems)
    for _ in range(60):
        q = "".join(rng.choice(letters) for _ in range(rng.randint(6, 12)))
        if absent(q):
            emit("find", "no_match", q, None)
    for w in rng.sample(ENGLISH, len(ENGLISH)):
        if absent(w):
            emit("find", "no_match", w, None)

def lev(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]

main()
