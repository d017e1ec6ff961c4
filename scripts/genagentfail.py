#!/usr/bin/env python3
"""Real coding agents' failed file accesses, replayed at each task's commit.

Reads public trajectories of coding agents working on SWE-bench tasks (read
straight from the git mirrors that hold them), finds every file access whose
observation says the path does not exist, and writes one case per failed
access to testdata/agentfail/cases.jsonl.gz (see testdata/agentfail/README.md
for the rules; `wayfind-bench agentfail` replays them).

    scripts/genagentfail.py \
        --mini gemini3pro-mini=/work/.mirror/gruckion+mini-swe-agent/repo:HEAD:swebench_results/20251118_gemini-3-pro-74pct/trajs \
        --mini gpt5mini-mini=/work/.mirror/RussellRyanH+CSCI-635-LiveSWE-Agent/repo:HEAD:results/llm-ablation/gpt-5-mini \
        --mini gpt5mini-live=/work/.mirror/RussellRyanH+CSCI-635-LiveSWE-Agent/repo:ab2510bc68d3ac6287e9944e5b49110a1503f263:results/live-gpt-5-mini-verified \
        --openhands claude35-openhands=/work/.mirror/All-Hands-AI+OpenHands/repo:4ce8594d56:evaluation/evaluation_outputs/outputs/princeton-nlp__SWE-bench_Verified-test/CodeActAgent/claude-3-5-sonnet-20241022_maxiter_50_N_v0.15.0-no-hint-no-condensation-run_1 \
        --sweetdream glm45=/work/.mirror/sweetdream0530+swe_bench_submission/repo:HEAD:submission_trajectories \
        --sweagent gpt4-coder=/work/.mirror/NL2Code+CodeR/repo:d63468344bc215bbabb8f0c1ba4af24897a946df:trajs \
        … (every source: testdata/agentfail/README.md has the whole command) \
        --commits testdata/agentfail/base_commits.tsv \
        --mirrors /work/.mirror \
        --halves testdata/agentfail/cases.jsonl.gz \
        --out testdata/agentfail/cases.jsonl.gz

Arguments:
  --mini LABEL=GITDIR:REV:PATH       mini-swe-agent trajectories (*.traj.json
                                     under PATH at REV of the git directory
                                     GITDIR); repeatable
  --openhands LABEL=GITDIR:REV:PATH  OpenHands llm_completions/ and infer_logs/
                                     under PATH; repeatable
  --sweetdream LABEL=GITDIR:REV:PATH trajectory.jsonl files with their own
                                     base_commit; repeatable
  --sweagent LABEL=GITDIR:REV:PATH   SWE-agent 0.x *.traj files (CodeR's too);
                                     repeatable
  --claudecode LABEL=GITDIR:REV:PATH Claude Code session logs (*.jsonl), the
                                     task named in the prompt; repeatable
  --mopenhands LABEL=GITDIR:REV:PATH OpenHands trajectories one file a task
                                     (trajs/INSTANCE/*.json, or
                                     llm_completions/INSTANCE/*.json: the last
                                     completion, its fncall_messages), the
                                     base commit named in the prompt;
                                     repeatable
  --commits FILE      instance_id TAB base_commit TAB where it was read, for the
                      trajectories that do not carry their task's base commit
  --mirrors DIR       git mirrors of the tasks' repositories (OWNER+NAME/repo or
                      OWNER+NAME, as the fetch tool lays them out): paths are
                      checked against the tree at the base commit and against
                      the whole history; without one, the trajectory alone
  --out FILE          the cases (gzip, one JSON object a line)
  --stats FILE        also write the counts as JSON here
  --halves FILE       a cases file whose ids keep their `half` (a case there
                      without one is "tuning"); every other case is
                      "held-out" (read before --out is written, so it may be
                      the same file)
  --tuning LABEL      with --halves: this source's cases are "tuning"
                      whatever FILE says (a held-out source moved whole);
                      repeatable
  --survey            keep the tasks with no base commit or no mirror,
                      unchecked (to see what a new source holds; not for
                      the cases file)
"""

import argparse
import collections
import gzip
import json
import os
import posixpath
import re
import shlex
import subprocess
import sys

NOT_FOUND = re.compile(
    r"No such file or directory|not found|does not exist|cannot access|can't open|"
    r"can't read|cannot open|can't cd|cannot stat|cannot find|Can't find", re.I)

# Programs whose own error lines ("prog: X: No such file…") count.
PROGS = {
    "cat", "ls", "sed", "grep", "egrep", "fgrep", "rg", "head", "tail", "nl", "wc", "less", "more",
    "find", "rm", "mv", "cp", "touch", "mkdir", "cd", "awk", "diff", "stat", "file", "python",
    "python3", "pytest", "py.test", "bash", "sh", "source", ".", "open", "tee", "chmod", "sort",
    "uniq", "cut", "xargs", "realpath", "readlink", "git", "patch",
}
ERR_LINE = re.compile(
    r"^\s*(?:(?:/usr)?(?:/bin/)?(?P<prog>[A-Za-z_.][\w.+-]*)(?:: line \d+)?: |"
    r"/bin/sh: \d+: |ERROR: |Error: |E +|The path |File |Directory |Invalid `path` parameter: |"
    r"(?:\w+: )?can't open file )")

READ_TOOLS = {"cat", "head", "tail", "nl", "wc", "less", "more", "stat", "file", "diff", "source", ".",
              "bash", "sh", "awk", "sort", "uniq", "cut"}
GREP_TOOLS = {"grep", "egrep", "fgrep", "rg", "ag"}
PY = re.compile(r"^python(\d(\.\d+)?)?$")
SKIP_ARG = re.compile(r"[*?\[\]{}$`~]|^-|^/dev/|^\d+$|^&\d$")


def git(gitdir, *args, data=None):
    return subprocess.run(["git", "-C", gitdir, *args], input=data, capture_output=True, check=True).stdout


class Blobs:
    """Reads many blobs from one git directory through one cat-file."""

    def __init__(self, gitdir):
        self.p = subprocess.Popen(["git", "-C", gitdir, "cat-file", "--batch"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE)

    def read(self, spec):
        self.p.stdin.write(spec.encode() + b"\n")
        self.p.stdin.flush()
        hdr = self.p.stdout.readline().split()
        if len(hdr) < 3 or hdr[1] == b"missing":
            return None
        n = int(hdr[2])
        body = self.p.stdout.read(n)
        self.p.stdout.read(1)
        return body


def listing(gitdir, rev, under):
    out = git(gitdir, "ls-tree", "-r", "--name-only", "-z", rev, "--", under)
    return [p for p in out.decode().split("\0") if p]


# ---------------------------------------------------------------- trajectories

class Step:
    """One action of an agent: its tool calls (as shell text or an editor
    call) and the observation."""

    def __init__(self, n, shell=None, editor=None, obs="", rc=None, cwd=None, tool=None):
        self.n, self.shell, self.editor, self.obs, self.rc = n, shell, editor, obs, rc
        self.cwd = cwd  # the working directory the trajectory records before it, if any
        self.tool = tool  # a file tool's call: (name, path, kind); obs is its error, if any


class Traj:
    def __init__(self, agent, source, instance, root, persistent_cd, steps, commit=None, commit_from=None,
                 aliases=(), submission=None):
        self.agent, self.source, self.instance, self.root = agent, source, instance, root
        self.aliases, self.submission = list(aliases), submission
        self.persistent_cd, self.steps = persistent_cd, steps
        self.commit, self.commit_from = commit, commit_from


def load_json(body, name):
    """A trajectory file's JSON, or None (said on stderr) when the snapshot
    lacks its blob (files of 4 MiB and more) or it does not parse."""
    if not body:
        print(f"{name}: no blob in the mirror (skipped)", file=sys.stderr)
        return None
    try:
        return json.loads(body)
    except ValueError:
        print(f"{name}: not JSON (skipped)", file=sys.stderr)
        return None


BASH_BLOCK = re.compile(r"```bash\s*\n(.*?)\n```", re.S)


def mini_trajs(label, gitdir, rev, under):
    blobs = Blobs(gitdir)
    for p in listing(gitdir, rev, under):
        if not p.endswith(".traj.json"):
            continue
        d = load_json(blobs.read(f"{rev}:{p}"), f"{gitdir_repo(gitdir)}:{p}")
        if d is None:
            continue
        inst = d.get("instance_id") or posixpath.basename(p)[: -len(".traj.json")]
        cwd = d.get("info", {}).get("config", {}).get("environment", {}).get("cwd") or "/testbed"
        ms = d["messages"]
        steps = []
        # mini-swe-agent 2 calls a bash tool: its results by call id.
        results = {m.get("tool_call_id"): m.get("content") for m in ms if m.get("role") == "tool"}
        for i, m in enumerate(ms):
            if m.get("role") == "assistant" and m.get("tool_calls"):
                for tc in m["tool_calls"]:
                    try:
                        cmd = json.loads(tc["function"]["arguments"]).get("command")
                    except (ValueError, KeyError, AttributeError):
                        continue
                    obs = results.get(tc.get("id"))
                    if not cmd or obs is None:
                        continue
                    if isinstance(obs, list):
                        obs = "".join(x.get("text", "") for x in obs)
                    rc = re.search(r"<returncode>(-?\d+)</returncode>", obs)
                    steps.append(Step(len(steps), shell=cmd, obs=obs, rc=int(rc.group(1)) if rc else None))
                continue
            if m.get("role") != "assistant" or i + 1 >= len(ms):
                continue
            blocks = BASH_BLOCK.findall(m.get("content") or "")
            if len(blocks) != 1:
                continue
            obs = ms[i + 1].get("content") or ""
            if isinstance(obs, list):
                obs = "".join(x.get("text", "") for x in obs)
            rc = re.search(r"<returncode>(-?\d+)</returncode>", obs)
            steps.append(Step(len(steps), shell=blocks[0], obs=obs, rc=int(rc.group(1)) if rc else None))
        yield Traj(label, f"{gitdir_repo(gitdir)}:{p}", inst, cwd, False, steps,
                   submission=d.get("info", {}).get("submission"))


def openhands_trajs(label, gitdir, rev, under):
    blobs = Blobs(gitdir)
    files = listing(gitdir, rev, under)
    by = collections.defaultdict(list)
    logs = {}
    for p in files:
        parts = p[len(under):].strip("/").split("/")
        if parts[0] == "llm_completions" and len(parts) == 3:
            by[parts[1]].append(p)
        elif parts[0] == "infer_logs" and parts[-1].startswith("instance_"):
            logs[parts[-1][len("instance_"):-len(".log")]] = p
    for inst, ps in sorted(by.items()):
        # The last completion holds every message before it.
        last = max(ps, key=lambda p: float(re.search(r"-(\d+\.\d+)\.json$", p).group(1)))
        d = json.loads(blobs.read(f"{rev}:{last}"))
        ms = d["messages"]
        text = lambda c: c if isinstance(c, str) else "".join(x.get("text", "") for x in c or [])
        root = None
        m0 = re.search(r"<uploaded_files>\s*(\S+)\s*</uploaded_files>", text(ms[1]["content"]) if len(ms) > 1 else "")
        if m0:
            root = m0.group(1).rstrip("/")
        results = {m.get("tool_call_id"): text(m["content"]) for m in ms if m.get("role") == "tool"}
        steps = []
        for m in ms:
            for tc in m.get("tool_calls") or []:
                try:
                    args = json.loads(tc["function"]["arguments"])
                except (ValueError, KeyError):
                    continue
                obs = results.get(tc.get("id"))
                if obs is None:
                    continue
                name = tc["function"].get("name")
                if name == "execute_bash" and args.get("command"):
                    steps.append(Step(len(steps), shell=args["command"], obs=obs))
                elif name == "str_replace_editor" and args.get("path"):
                    steps.append(Step(len(steps), editor=(args.get("command"), args["path"]), obs=obs))
        commit = None
        if inst in logs:
            lg = blobs.read(f"{rev}:{logs[inst]}").decode("utf-8", "replace")
            mc = re.search(r"git diff --no-color --cached ([0-9a-f]{40})", lg)
            if mc:
                commit = mc.group(1)
        # The uploaded directory and /testbed are the same checkout (its
        # errors name /testbed paths).
        yield Traj(label, f"{gitdir_repo(gitdir)}:{last}", inst, root or "/testbed", True, steps, commit,
                   f"{gitdir_repo(gitdir)}:{logs.get(inst)}" if commit else None, aliases=["/testbed"])


def mopenhands_trajs(label, gitdir, rev, under):
    """OpenHands trajectories kept one file a task (`trajs/INSTANCE/NAME-
    TIMESTAMP.json`, the task's last LLM completion: every message before
    it, as in Multi-SWE-bench's experiments; or an eval output's
    `llm_completions/INSTANCE/NAME-TIMESTAMP.json`, the last one read the
    same way): `fncall_messages` holds the
    tool calls (execute_bash, str_replace_editor) and their answers. The
    prompt names the uploaded directory (the root) and the task's base
    commit (`… the base commit SHA`); each bash answer ends with the shell's
    cwd (`[Current working directory: X]`), which the next call starts in.
    The last `git diff` the agent printed stands for its submission. The
    task's /testbed is the same tree (the agent reads it too)."""
    blobs = Blobs(gitdir)
    by = collections.defaultdict(list)
    for p in listing(gitdir, rev, under):
        parts = p[len(under):].strip("/").split("/")
        # trajs/ (Multi-SWE-bench's experiments) or llm_completions/ (an
        # OpenHands eval output directory whose completions were logged in
        # this non-native function-calling form, fncall_messages).
        if len(parts) == 3 and parts[0] in ("trajs", "llm_completions") and parts[2].endswith(".json"):
            by[parts[1]].append(p)
    text = lambda c: c if isinstance(c, str) else "".join(
        x.get("text", "") for x in c or [] if isinstance(x, dict))
    for inst, ps in sorted(by.items()):
        stamp = lambda p: float((re.search(r"-(\d+(?:\.\d+)?)\.json$", p) or [0, 0])[1])
        last = max(ps, key=stamp)
        d = load_json(blobs.read(f"{rev}:{last}"), f"{gitdir_repo(gitdir)}:{last}")
        if d is None:
            continue
        ms = d.get("fncall_messages") or d.get("messages") or []
        prompt = "\n".join(text(m.get("content")) for m in ms if m.get("role") == "user")
        m0 = re.search(r"<uploaded_files>\s*(\S+)\s*</uploaded_files>", prompt)
        root = m0.group(1).rstrip("/") if m0 else "/testbed"
        mc = re.search(r"\bbase commit ([0-9a-f]{40})\b", prompt)
        results = {m.get("tool_call_id"): text(m.get("content")) for m in ms if m.get("role") == "tool"}
        steps, cwd, diff = [], None, None
        for m in ms:
            for tc in m.get("tool_calls") or []:
                try:
                    args = json.loads(tc["function"]["arguments"])
                except (ValueError, KeyError, TypeError):
                    continue
                obs = results.get(tc.get("id"))
                if obs is None or not isinstance(args, dict):
                    continue
                name = tc["function"].get("name")
                if name == "execute_bash" and args.get("command"):
                    steps.append(Step(len(steps), shell=args["command"], obs=obs, cwd=cwd))
                    found = re.findall(r"^\[Current working directory: (/[^\]]*)\]$", obs, re.M)
                    if found:
                        cwd = found[-1].rstrip("/") or "/"
                    if (re.search(r"\bgit\b(?:\s+-C\s+\S+)?\s+diff\b(?![^|;&\n]*\.\.)", args["command"])
                            and re.search(r"^diff --git ", obs, re.M)):
                        diff = obs
                elif name == "str_replace_editor" and args.get("path"):
                    steps.append(Step(len(steps), editor=(args.get("command"), args["path"]), obs=obs))
        yield Traj(label, f"{gitdir_repo(gitdir)}:{last}", inst, root, True, steps,
                   mc.group(1) if mc else None, f"{gitdir_repo(gitdir)}:{last}" if mc else None,
                   aliases=["/testbed"], submission=diff)


def sweetdream_trajs(label, gitdir, rev, under):
    """Trajectories that log no tool calls: read for their base commits and
    counted, they give no case."""
    blobs = Blobs(gitdir)
    for p in listing(gitdir, rev, under):
        if not p.endswith("trajectory.jsonl"):
            continue
        commit, inst, steps = None, None, []
        for line in blobs.read(f"{rev}:{p}").decode().splitlines():
            try:
                e = json.loads(line)
            except ValueError:
                continue
            det = e.get("details") or {}
            commit = commit or det.get("base_commit")
            inst = inst or (e.get("metadata") or {}).get("instance_id")
        yield Traj(label, f"{gitdir_repo(gitdir)}:{p}", inst, "/testbed", False, steps, commit,
                   f"{gitdir_repo(gitdir)}:{p}")


def sweagent_trajs(label, gitdir, rev, under):
    """SWE-agent 0.x .traj files: one shell session (its cwd carried over,
    recorded in each step's state) at /OWNER__NAME, with the agent's own
    commands (open, create, find_file, search_dir, search_file, edit …)."""
    blobs = Blobs(gitdir)
    for p in listing(gitdir, rev, under):
        if not p.endswith(".traj"):
            continue
        d = load_json(blobs.read(f"{rev}:{p}"), f"{gitdir_repo(gitdir)}:{p}")
        if d is None:
            continue
        inst = posixpath.basename(p)[: -len(".traj")]
        root = "/" + inst.rsplit("-", 1)[0]
        # The first user message that is not a demonstration (Multi-SWE-
        # bench's Java runs put one, of another repository, first).
        m0 = re.search(r"\(Current directory: (/[^)\s]*)\)",
                       next((m.get("content") or "" for m in d.get("history", [])
                             if m.get("role") == "user" and not m.get("is_demo")), ""))
        if m0:
            root = m0.group(1).rstrip("/") or root
        steps, cwd = [], root
        for t in d.get("trajectory", []):
            act = (t.get("action") or "").strip()
            try:
                state = json.loads(t.get("state") or "{}")
            except ValueError:
                state = {}
            if re.match(r"(edit|plan)\b", act):
                # edit N:M, its replacement text up to end_of_edit (CodeR's
                # plan, its JSON up to end_of_plan): no path.
                act = ""
            if act.strip():
                steps.append(Step(len(steps), shell=act, obs=t.get("observation") or "", cwd=cwd))
            else:
                steps.append(Step(len(steps), obs=t.get("observation") or "", cwd=cwd))
            cwd = state.get("working_dir") or cwd
        yield Traj(label, f"{gitdir_repo(gitdir)}:{p}", inst, root, True, steps,
                   submission=(d.get("info") or {}).get("submission"))


CC_TOOL_ERROR = re.compile(r"^<tool_use_error>(?:File does not exist\.|(?:Path|Directory) does not exist: (.*?))"
                           r"(?: Current working directory: .*)?(?:</tool_use_error>)?$")


def claudecode_trajs(label, gitdir, rev, under):
    """Claude Code session logs (one JSONL a session): the user's prompt
    names the task (`instance_id: …`); each assistant line's tool_use calls
    (Bash, Read, Edit, Write, Grep, Glob, LS) with the session's cwd at the
    call, their tool_result answers on a later user line. The Bash shell's
    cwd carries over (the recorded cwd is used). The agent clones the task's
    repository into `testbed` under the session's project directory and
    checks out the base commit itself: the root is PROJECT/testbed. A
    project directory recorded as `./NAME` (a publisher's stand-in for the
    absolute path it removed) is read as `/NAME`, in the cwds, the calls and
    their answers alike. The last `git diff` the agent printed stands for
    its submission (its pre-image blobs confirm the base commit)."""
    blobs = Blobs(gitdir)
    text_of = lambda c: c if isinstance(c, str) else "".join(
        x.get("text", "") for x in c or [] if isinstance(x, dict))
    for p in listing(gitdir, rev, under):
        if not p.endswith(".jsonl"):
            continue
        body = blobs.read(f"{rev}:{p}")
        if not body:
            print(f"{gitdir_repo(gitdir)}:{p}: no blob in the mirror (skipped)", file=sys.stderr)
            continue
        events = []
        for line in body.decode("utf-8", "replace").splitlines():
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if isinstance(e, dict):
                events.append(e)
        inst = None
        for e in events:
            if e.get("type") == "user" and isinstance(e.get("message"), dict):
                m0 = re.search(r"instance_id:\s*([\w.-]+__[\w.-]+-\d+)", text_of(e["message"].get("content")))
                if m0:
                    inst = m0.group(1)
                    break
        project = next((e["cwd"] for e in events if e.get("cwd")), "/testbed")
        anon = lambda s: s
        if project.startswith("./"):
            name = project[2:].split("/")[0]
            stand_in = re.compile(r"(?<![\w.~/-])\./" + re.escape(name) + r"(?![\w.-])")
            anon = lambda s, stand_in=stand_in, name=name: stand_in.sub("/" + name, s) if s else s
            project = "/" + name
        root = project.rstrip("/") + "/testbed"
        results = {}
        for e in events:
            c = (e.get("message") or {}).get("content") if isinstance(e.get("message"), dict) else None
            for x in c if isinstance(c, list) else []:
                if isinstance(x, dict) and x.get("type") == "tool_result":
                    results[x.get("tool_use_id")] = (anon(text_of(x.get("content"))), bool(x.get("is_error")))
        steps, diff, skip = [], None, None
        for e in events:
            c = (e.get("message") or {}).get("content") if isinstance(e.get("message"), dict) else None
            if e.get("type") != "assistant" or not isinstance(c, list):
                continue
            cwd = anon(e.get("cwd")) or project
            for x in c:
                if not isinstance(x, dict) or x.get("type") != "tool_use" or x.get("id") not in results:
                    continue
                obs, err = results[x["id"]]
                name, inp = x.get("name"), x.get("input") or {}
                if name == "Bash" and inp.get("command"):
                    cmd = anon(inp["command"])
                    if re.search(r"\bgit\s+clone\b", cmd) and (cwd == root or cwd.startswith(root + "/")):
                        # A second clone inside its own checkout: the tree
                        # the agent worked in is not the commit's.
                        skip = "the session cloned the repository again inside its checkout"
                    steps.append(Step(len(steps), shell=cmd, obs=obs, cwd=cwd))
                    if (re.search(r"\bgit\b(?:\s+-C\s+\S+)?\s+diff\b(?![^|;&\n]*\.\.)", cmd)
                            and re.search(r"^diff --git ", obs, re.M)):
                        diff = obs
                elif name in ("Read", "Edit", "MultiEdit", "Write") and inp.get("file_path"):
                    steps.append(Step(len(steps), tool=(name, anon(inp["file_path"]), "write" if name == "Write" else "read"),
                                      obs=obs if err else "", cwd=cwd))
                elif name in ("Grep", "Glob", "LS") and inp.get("path"):
                    q = anon(inp["path"])
                    # Grep searches a directory recursively: a name without
                    # an extension is a directory question (as grep -r's).
                    kind = "read" if name == "Grep" and posixpath.splitext(q.rstrip("/"))[1] else "list"
                    steps.append(Step(len(steps), tool=(name, q, kind), obs=obs if err else "", cwd=cwd))
        t = Traj(label, f"{gitdir_repo(gitdir)}:{p}", inst, root, True, steps, submission=diff)
        t.skip = skip
        yield t


def gitdir_repo(gitdir):
    """owner/name of a mirror laid out as …/OWNER+NAME/repo."""
    d = gitdir.rstrip("/")
    if d.endswith("/repo"):
        d = d[:-5]
    return posixpath.basename(d).replace("+", "/", 1)


# ---------------------------------------------------------------- shell parsing

HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1")


def strip_heredocs(text):
    """The command text without heredoc bodies (their lines are data)."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        ends = [m.group(2) for m in HEREDOC.finditer(line)]
        i += 1
        for end in ends:
            while i < len(lines) and lines[i].strip() != end:
                i += 1
            i += 1
    return "\n".join(out)


def simple_commands(text):
    """The simple commands of a shell text, each a list of words, with the
    operators that separate them dropped (redirections kept as words)."""
    text = strip_heredocs(text)
    lex = shlex.shlex(text, posix=True, punctuation_chars=";&|<>()")
    lex.whitespace = " \t\r"
    lex.whitespace_split = True
    lex.commenters = ""
    cmds, cur = [], []
    try:
        for tok in lex:
            if tok in ("\n", ";", "&&", "||", "|", "&", "(", ")", ";;", "|&"):
                if cur:
                    cmds.append(cur)
                cur = []
            elif "\n" in tok and not tok.strip():
                if cur:
                    cmds.append(cur)
                cur = []
            else:
                cur.append(tok)
    except ValueError:
        return None
    if cur:
        cmds.append(cur)
    return cmds


class Access:
    def __init__(self, tool, path, kind, pos, cwd):
        self.tool, self.path, self.kind, self.pos, self.cwd = tool, path, kind, pos, cwd


def nonopt(words, with_value=()):
    """The operands of words (options and the values of with_value
    dropped), with their positions."""
    out, skip, dd = [], False, False
    for i, w in enumerate(words):
        if skip:
            skip = False
            continue
        if not dd and w == "--":
            dd = True
            continue
        if not dd and w.startswith("-") and w != "-":
            if w in with_value:
                skip = True
            continue
        out.append((i, w))
    return out


def accesses_of(words, cwd):
    """The file accesses of one simple command: (Access, …), and the new
    cwd when it is a cd."""
    # Redirections first: > FILE writes, < FILE reads.
    clean, acc = [], []
    i = 0
    while i < len(words):
        w = words[i]
        if w in (">", ">>", "<", ">|", "&>", ">&") and i + 1 < len(words):
            tgt = words[i + 1]
            if clean and re.fullmatch(r"\d", clean[-1]):
                clean.pop()
            if w == ">&" or tgt.startswith("&") or tgt.startswith("/dev/"):
                i += 2
                continue
            acc.append(Access(">" if w != "<" else "<", tgt, "write" if w != "<" else "read", i + 1, cwd))
            i += 2
            continue
        clean.append(w)
        i += 1
    words = clean
    while words and (re.fullmatch(r"[A-Za-z_]\w*=.*", words[0]) or words[0] in ("sudo", "time", "command", "exec", "nohup")):
        words = words[1:]
    if words and words[0] == "timeout" and len(words) > 2:
        words = words[2:]
    if not words:
        return acc, None
    prog = posixpath.basename(words[0])
    args = words[1:]
    new_cwd = None

    def add(tool, items, kind):
        for pos, a in items:
            acc.append(Access(tool, a, kind, pos + 1, cwd))

    def add_pytest(items):
        # pytest DIR (a name without an extension) collects a directory: a
        # directory question, like ls of such a name.
        for pos, a in items:
            dirq = not posixpath.splitext(posixpath.basename(pytest_path(a).rstrip("/")))[1]
            acc.append(Access("pytest", a, "list" if dirq else "read", pos + 1, cwd))

    if prog == "cd":
        ops = nonopt(args)
        if ops:
            add("cd", ops[:1], "list")
            new_cwd = ops[0][1]
    elif prog in READ_TOOLS and prog not in ("bash", "sh", "awk"):
        add(prog, nonopt(args, ("-n", "-c", "-k", "-t", "-o", "-d", "-f")), "read")
    elif prog in ("bash", "sh", "source", "."):
        ops = nonopt(args, ("-c",))
        if "-c" not in args and ops:
            add(prog, ops[:1], "read")
    elif prog == "awk":
        ops = nonopt(args, ("-F", "-v", "-f"))
        add(prog, ops[1:], "read")
    elif prog == "sed":
        ops = nonopt(args, ("-e", "-f", "-l"))
        if "-e" not in args and "-f" not in args:
            ops = ops[1:]
        add(prog, ops, "read")
    elif prog in GREP_TOOLS:
        ops = nonopt(args, ("-e", "-f", "-A", "-B", "-C", "-m", "-g", "-t", "--type", "--glob", "--max-count"))
        if "-e" not in args and "-f" not in args:
            ops = ops[1:]
        rec = any(a.startswith("-") and not a.startswith("--") and ("r" in a or "R" in a) for a in args) or prog in ("rg", "ag")
        for pos, a in ops:
            acc.append(Access(prog, a, "list" if rec and not posixpath.splitext(a.rstrip("/"))[1] else "read", pos + 1, cwd))
    elif prog == "ls" or prog == "tree":
        add(prog, nonopt(args, ("-I", "-L", "--ignore")), "list")
    elif prog == "find":
        for pos, a in enumerate(args):
            if a.startswith("-") or a in ("(", "!", ")"):
                break
            acc.append(Access("find", a, "list", pos + 1, cwd))
    elif PY.match(prog):
        ops = nonopt(args, ("-W", "-X", "-c", "-m"))
        if "-c" in args:
            pass
        elif "-m" in args:
            mi = args.index("-m")
            if mi + 1 < len(args) and args[mi + 1] == "pytest":
                add_pytest(pytest_ops(args[mi + 2:], mi + 2))
        elif ops:
            add(prog, ops[:1], "read")
    elif prog in ("pytest", "py.test"):
        add_pytest(pytest_ops(args, 0))
    elif prog in ("touch", "mkdir"):
        add(prog, nonopt(args, ("-m", "-t", "-d", "-r")), "write")
    elif prog == "rm":
        add(prog, nonopt(args), "write")
    elif prog in ("cp", "mv"):
        ops = nonopt(args, ("-t", "-S"))
        if len(ops) >= 2:
            add(prog, ops[:-1], "read")
            add(prog, ops[-1:], "write")
    elif prog == "tee":
        add(prog, nonopt(args), "write")
    elif prog == "open" and args:
        add("open", [(0, args[0])], "read")
    elif prog == "create" and args:
        add("create", [(0, args[0])], "write")
    elif prog in ("find_file", "search_dir") and len(args) >= 2:
        add(prog, [(1, args[1])], "list")
    elif prog == "search_file" and len(args) >= 2:
        add(prog, [(1, args[1])], "read")
    elif prog == "str_replace_editor" and len(args) >= 2:
        add("str_replace_editor " + args[0], [(1, args[1])], "write" if args[0] == "create" else "read")
    elif "/" in words[0] and not words[0].startswith("/usr/") and not words[0].startswith("/bin/"):
        acc.append(Access("exec", words[0], "read", 0, cwd))
    return acc, new_cwd


def pytest_ops(args, base):
    out = []
    for pos, a in nonopt(args, ("-k", "-m", "-p", "-c", "-o", "-W", "--tb", "--rootdir", "--deselect",
                                "--ignore", "-n", "--maxfail", "--durations", "-r")):
        out.append((base + pos, a))
    return out


def pytest_path(a):
    return a.split("::")[0]


# ---------------------------------------------------------------- failures

def failed_line(obs_lines, tool, arg, abs_path):
    """The observation line saying arg does not exist, or None."""
    cands = {arg, arg.rstrip("/"), pytest_path(arg), abs_path, abs_path.rstrip("/")}
    cands.discard("")
    for line in obs_lines:
        if not NOT_FOUND.search(line):
            continue
        m = ERR_LINE.match(line)
        if not m:
            continue
        prog = m.group("prog")
        if prog and prog not in PROGS and not PY.match(prog) and prog not in ("ERROR", "Error"):
            continue
        for c in cands:
            # Bounded by spaces, quotes or a colon; a leading / is python
            # naming the file from its cwd ("can't open file '/testbed/x.py'").
            if re.search(r"(?:^|[\s'\"`:(/])" + re.escape(c) + r"(?:$|[\s'\"`:),])", line):
                return line.strip()
    return None


def norm(cwd, p):
    """The absolute, normalised form of p at cwd (a trailing / kept)."""
    slash = p.endswith("/") and p != "/"
    q = posixpath.normpath(p if p.startswith("/") else posixpath.join(cwd, p))
    return q + "/" if slash else q


def rel_to(roots, absp):
    a = absp.rstrip("/")
    for root in roots:
        if a == root:
            return ""
        if a.startswith(root + "/"):
            return a[len(root) + 1:]
    return None


class Tree:
    """A repository's tree at a commit and its whole history."""

    def __init__(self, gitdir, commit):
        self.gitdir, self.commit = gitdir, commit
        out = git(gitdir, "ls-tree", "-r", "-t", "-z", "--full-tree", commit).decode("utf-8", "replace")
        self.files, self.dirs = {}, {""}
        for rec in out.split("\0"):
            if not rec:
                continue
            meta, path = rec.split("\t", 1)
            f = meta.split()
            if f[1] == "tree":
                self.dirs.add(path)
            else:
                self.files[path] = f[2]

    def check_diff(self, diff):
        """Whether a diff's pre-images are this tree's blobs: (matched,
        mismatched) counts."""
        ok = bad = 0
        for m in re.finditer(r"^diff --git a/(\S+) b/\S+\n(?:(?:old|new|deleted|similarity|rename|copy)[^\n]*\n)*index ([0-9a-f]+)\.\.", diff or "", re.M):
            path, pre = m.group(1), m.group(2)
            if set(pre) == {"0"}:
                continue
            if self.files.get(path, "").startswith(pre):
                ok += 1
            else:
                bad += 1
        return ok, bad

    def kind(self, rel):
        r = rel.rstrip("/")
        if r in self.files:
            return "file"
        if r in self.dirs:
            return "dir"
        return None


_hist = {}


def ever_in_history(gitdir, rel):
    key = (gitdir, rel)
    if key not in _hist:
        try:
            out = git(gitdir, "log", "--all", "-1", "--format=%h", "--", rel.rstrip("/"))
        except subprocess.CalledProcessError:
            out = b""
        _hist[key] = bool(out.strip())
    return _hist[key]


def mirror_of(mirrors, repo):
    """The git directory of repo's mirror; a task's lower-case OWNER/NAME
    (fasterxml/jackson-core) finds the mirror GitHub's spelling names
    (FasterXML+jackson-core) when no mirror has the name as written."""
    if not mirrors:
        return None
    names = [repo.replace("/", "+")]
    try:
        names += sorted(n for n in os.listdir(mirrors) if n.lower() == names[0].lower() and n != names[0])
    except OSError:
        pass
    for name in names:
        for d in (os.path.join(mirrors, name, "repo"), os.path.join(mirrors, name)):
            if os.path.isdir(d) and os.path.exists(os.path.join(d, "HEAD")):
                return d
    return None


def repo_of(instance):
    owner, rest = instance.split("__", 1)
    return owner + "/" + rest.rsplit("-", 1)[0]


def extract(traj, tree, gitdir, stats):
    """The failed accesses of one trajectory, with their truths."""
    events, created, roots = trajectory_accesses(traj, stats)
    return failed_cases(traj, tree, gitdir, stats, events, created, roots)


def trajectory_accesses(traj, stats):
    """Every file access of one trajectory, in order: (events, created,
    roots), events a list of (step, order, Access, absolute path, failed
    line or None, command), created the absolute paths the agent wrote,
    roots the trajectory's root and its aliases."""
    events = []  # (step, order, Access, absolute path, failed line or None)
    created = set()
    roots = [traj.root] + traj.aliases
    cwd = traj.root
    for st in traj.steps:
        lines = st.obs.replace("\r", "").split("\n")
        if st.tool:
            # A file tool's call (Claude Code's Read, Grep, Glob …): its
            # own error says its one path does not exist ("File does not
            # exist." names none; "Path does not exist: X" must name it).
            tname, p, kind = st.tool
            if SKIP_ARG.search(p) or p in (".", "..", "/") or not p.strip():
                continue
            tcwd = st.cwd or cwd
            a = Access(tname, p, kind, 1, tcwd)
            absp = norm(tcwd, p)
            bad = None
            for line in lines:
                m = CC_TOOL_ERROR.match(line.strip())
                if m and (m.group(1) is None or m.group(1).rstrip("/") in (p.rstrip("/"), absp.rstrip("/"))):
                    bad = line.strip()
                    break
            events.append((st.n, 0, a, absp, bad, tname + " " + p))
            if kind == "write" and not bad:
                created.add(absp.rstrip("/"))
            continue
        if st.editor:
            cmd, p = st.editor
            kind = "write" if cmd == "create" else "read"
            a = Access("str_replace_editor " + (cmd or ""), p, kind, 1, cwd)
            absp = norm(cwd, p)
            bad = None
            for line in lines:
                if NOT_FOUND.search(line) and (p in line or absp in line) and ("does not exist" in line or "not found" in line.lower()):
                    bad = line.strip()
                    break
            events.append((st.n, 0, a, absp, bad, "str_replace_editor " + (cmd or "") + " " + p))
            if cmd == "create" and not bad:
                created.add(absp.rstrip("/"))
            continue
        if not st.shell:
            continue
        step_cwd = cwd if traj.persistent_cd else traj.root
        if st.cwd:
            step_cwd = st.cwd
        cmds = simple_commands(st.shell)
        if cmds is None:
            stats["unparsed commands"] += 1
            continue
        for k, words in enumerate(cmds):
            acc, new_cwd = accesses_of(words, step_cwd)
            for a in acc:
                if SKIP_ARG.search(a.path) or a.path in (".", "..", "/") or not a.path.strip():
                    continue
                absp = norm(step_cwd, pytest_path(a.path))
                bad = failed_line(lines, a.tool, a.path, absp)
                events.append((st.n, k, a, absp, bad, st.shell))
                if a.kind == "write" and a.tool != "rm" and not bad:
                    created.add(absp.rstrip("/"))
            if new_cwd and not SKIP_ARG.search(new_cwd):
                step_cwd = norm(step_cwd, new_cwd).rstrip("/") or "/"
        if traj.persistent_cd:
            cwd = step_cwd
    return events, created, roots


def failed_cases(traj, tree, gitdir, stats, events, created, roots):
    """The failed accesses among events, as cases with their truths."""
    # Scratch: every path the agent wrote (before or after the failure).
    out = []
    seen = set()
    for idx, (n, k, a, absp, bad, cmd) in enumerate(events):
        if not bad:
            continue
        stats["failed accesses (as observed)"] += 1
        rel = rel_to(roots, absp)
        if tree is not None and rel is not None and tree.kind(rel) is not None:
            # There at the commit: it failed for another reason (the agent
            # had moved it, or the cwd is not what the trajectory says).
            stats["dropped: the path is at the commit"] += 1
            continue
        key = (absp, a.kind)
        if key in seen:
            stats["dropped: the same path asked again"] += 1
            continue
        seen.add(key)
        truth, tkind = find_truth(events, idx, roots, tree, created)
        truth_from = "fix" if truth is not None else None
        if a.kind == "write":
            # A write makes the path: nothing else is meant.
            truth, tkind = None, None
        scratch = (absp.rstrip("/") in created or absp.startswith("/tmp/") or absp.startswith("/tmp")
                   and absp.rstrip("/") == "/tmp")
        after_name = root_named_again(rel, roots, tree)
        if not scratch and truth is None and rel is not None and rel.rstrip("/") in [posixpath.basename(r) for r in roots]:
            pass  # the root named from inside it (`ls testbed` at /testbed): nothing else is meant
        elif not scratch and truth is None and after_name is not None and a.kind != "write":
            # The root named from inside it before a path of the commit
            # (`testbed/setup.py` at /testbed): that path is meant. Checked
            # against the agents' own fixes where they made one: of Claude
            # Code's 55 such paths with a fix, every fix was the path after
            # the name; by hand, 5 of 5 without one (the agent's next
            # commands found its cwd and went on at the root).
            truth, tkind = after_name
            truth_from = "root name"
        elif not scratch and truth is None and a.kind != "write" and find_before(events, idx, roots, tree, created):
            # No fix after it: the file of that name the agent had just
            # accessed (`open src/…/XmlMapper.java`, then `grep X
            # XmlMapper.java` at the root) is meant, not a file of its own.
            truth, tkind = find_before(events, idx, roots, tree, created)
            truth_from = "before"
        elif not scratch and truth is None:
            if rel is None:
                scratch = any(posixpath.dirname(absp.rstrip("/")) == posixpath.dirname(r) for r in roots)  # e.g. /workspace/x
            elif (gitdir is not None and rel and not ever_in_history(gitdir, rel)
                  and tree.kind(posixpath.dirname(rel.rstrip("/"))) is None or "/" not in rel.rstrip("/")
                  and gitdir is not None and not ever_in_history(gitdir, rel)):
                # Never in the repository, and at its top or in a directory
                # the commit lacks: the agent's own (reproduce.py, repro_app/…).
                # A never-seen name in one of the repository's directories is
                # a wrong guess (tests/test_x.py): not scratch, truth unknown.
                scratch = True
        if scratch:
            truth, tkind, truth_from = None, None, None
        if a.kind == "write":
            truth_from = None
        out.append({
            "id": f"{traj.instance}/{traj.agent}/{n}.{k}.{a.pos}",
            "repo": gitdir_repo(gitdir) if gitdir else repo_of(traj.instance),
            "instance": traj.instance,
            "commit": traj.commit,
            "agent": traj.agent,
            "root": next((r for r in roots if rel_to([r], a.cwd) is not None), traj.root),
            "root_aliases": [r for r in roots if r != next((r for r in roots if rel_to([r], a.cwd) is not None), traj.root)],
            "cwd": a.cwd,
            "tool": a.tool,
            "argpos": a.pos,
            "command": cmd if len(cmd) <= 400 else cmd[:400] + "…",
            "path": a.path,
            "kind": "list" if a.kind == "read" and a.path.endswith("/") else a.kind,
            "scratch": bool(scratch),
            "truth": truth,
            "truth_kind": tkind,
            "truth_from": truth_from,
            "error": bad[:200],
            "source": traj.source,
        })
    return out


def root_named_again(rel, roots, tree):
    """The path after the root's own name when rel (root-relative) begins
    with it and the commit has nothing by that name at its top, as
    (path, "file" | "dir") when the commit has that path; else None."""
    if rel is None or tree is None:
        return None
    for r in roots:
        name = posixpath.basename(r.rstrip("/"))
        if not name or not rel.startswith(name + "/") or tree.kind(name) is not None:
            continue
        rest = rel[len(name) + 1:].rstrip("/")
        rest = rest.split("::")[0]
        kind = tree.kind(rest) if rest else None
        if kind is not None:
            return rest, kind
    return None


WINDOW = 8  # actions after the failure where its fix is looked for
SAME_TOOL = 3  # … and within this many, the same tool's next success


def is_dir_question(a):
    """Whether a failed access asks for a directory: cd, find, a trailing /,
    or ls / a recursive grep of a name without an extension."""
    if a.path.endswith("/") or a.tool in ("cd", "find", "find_file", "search_dir"):
        return True
    return a.kind == "list" and not posixpath.splitext(posixpath.basename(a.path))[1]


def find_truth(events, idx, roots, tree, created):
    n0, k0, a0, abs0, _, _ = events[idx]
    base0 = posixpath.basename(abs0.rstrip("/"))
    stem0 = posixpath.splitext(base0)[0]
    dirq = is_dir_question(a0)
    best = None
    for n, k, a, absp, bad, _ in events[idx + 1:]:
        if n - n0 > WINDOW:
            break
        if bad or absp.rstrip("/") in created:
            continue
        rel = rel_to(roots, absp)
        if not rel:
            continue
        kind = tree.kind(rel) if tree is not None else ("dir" if a.kind == "list" else "file")
        if kind is None:
            continue
        rel = rel.rstrip("/")
        base = posixpath.basename(rel)
        if dirq:
            # A directory question: the first later path with a directory of
            # the same name (or the same directory named).
            parts = rel.split("/")
            if kind == "file":
                parts = parts[:-1]
            for j in range(len(parts), 0, -1):
                if parts[j - 1] == base0:
                    return "/".join(parts[:j]), "dir"
            if base == base0:
                return rel, kind
        else:
            if base == base0:
                return rel, kind
            if kind == "file" and stem0 and posixpath.splitext(base)[0] == stem0 and best is None:
                best = (rel, kind, "stem")
        if (best is None and not dirq and a.tool == a0.tool and n - n0 <= SAME_TOOL and n > n0
                and kind == "file"):
            best = (rel, kind, "tool")
    if best:
        return best[0], best[1]
    return None, None


def find_before(events, idx, roots, tree, created):
    """With no fix after a failed read of a file, the file of the commit
    with the same file name that the agent accessed last, successfully,
    within WINDOW actions before it (the same action's earlier commands
    included), not one the agent wrote: (path, "file"), or None."""
    n0, k0, a0, abs0, _, _ = events[idx]
    if tree is None or is_dir_question(a0):
        return None
    base0 = posixpath.basename(abs0.rstrip("/"))
    for n, k, a, absp, bad, _ in reversed(events[:idx]):
        if n0 - n > WINDOW:
            break
        if bad or absp.endswith("/") or absp.rstrip("/") in created:
            continue
        rel = rel_to(roots, absp)
        if rel and posixpath.basename(rel) == base0 and tree.kind(rel) == "file":
            return rel, "file"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mini", action="append", default=[])
    ap.add_argument("--openhands", action="append", default=[])
    ap.add_argument("--sweetdream", action="append", default=[])
    ap.add_argument("--sweagent", action="append", default=[])
    ap.add_argument("--claudecode", action="append", default=[])
    ap.add_argument("--mopenhands", action="append", default=[])
    ap.add_argument("--commits")
    ap.add_argument("--mirrors")
    ap.add_argument("--out", required=True)
    ap.add_argument("--stats")
    ap.add_argument("--halves", help="a cases file (gzip) whose ids keep their half; its cases without one are "
                    "the tuning half; every other case is held out")
    ap.add_argument("--tuning", action="append", default=[], metavar="LABEL",
                    help="with --halves: the cases of this source (its label) are the tuning half, whatever FILE "
                    "says (a held-out source whose answers were read moves whole); repeatable")
    ap.add_argument("--survey", action="store_true", help="keep tasks without a base commit (unchecked; to see which commits are needed)")
    o = ap.parse_args()
    commits = {}
    if o.commits:
        for line in open(o.commits):
            if line.strip() and not line.startswith("#"):
                f = line.rstrip("\n").split("\t")
                commits[f[0]] = (f[1], f[2] if len(f) > 2 else o.commits)
    stats = collections.Counter()
    per_agent = collections.Counter()
    cases = []
    trees = {}
    for kind, specs, reader in (("mini", o.mini, mini_trajs), ("openhands", o.openhands, openhands_trajs),
                                ("sweetdream", o.sweetdream, sweetdream_trajs),
                                ("sweagent", o.sweagent, sweagent_trajs),
                                ("claudecode", o.claudecode, claudecode_trajs),
                                ("mopenhands", o.mopenhands, mopenhands_trajs)):
        for spec in specs:
            label, rest = spec.split("=", 1)
            gitdir, rev, under = rest.split(":", 2)
            for t in reader(label, gitdir, rev, under):
                stats["trajectories"] += 1
                per_agent[label] += 1
                if not t.instance:
                    continue
                if getattr(t, "skip", None):
                    stats[f"skipped: {t.skip}"] += 1
                    continue
                if not t.commit and t.instance in commits:
                    t.commit, t.commit_from = commits[t.instance]
                if not t.commit and not o.survey:
                    stats["skipped: no base commit"] += 1
                    continue
                repo = repo_of(t.instance)
                gd = mirror_of(o.mirrors, repo)
                tree = None
                if gd and t.commit:
                    if (gd, t.commit) not in trees:
                        try:
                            trees[(gd, t.commit)] = Tree(gd, t.commit)
                        except subprocess.CalledProcessError:
                            trees[(gd, t.commit)] = None
                            print(f"{t.instance}: {t.commit} is not in {gd}", file=sys.stderr)
                    tree = trees[(gd, t.commit)]
                    if tree is None:
                        stats["skipped: base commit not in the mirror"] += 1
                        continue
                    ok, bad = tree.check_diff(t.submission)
                    if bad:
                        print(f"{t.instance}: the submission's pre-images are not {t.commit}'s", file=sys.stderr)
                        stats["skipped: submission pre-images differ from the base commit"] += 1
                        continue
                    stats["base commits confirmed by the submission's pre-image blobs" if ok else
                          "base commits without a submission to confirm them"] += 1
                else:
                    stats[f"trajectories without a mirror ({repo})"] += 1
                if tree is None and not o.survey:
                    stats["skipped: no mirror to check the paths against"] += 1
                    continue
                for c in extract(t, tree, gd if tree else None, stats):
                    c["commit_from"] = t.commit_from
                    c["checked"] = tree is not None
                    if tree is not None:
                        c["truth_kind"] = c["truth_kind"] and tree.kind(c["truth"])
                    cases.append(c)
    if o.halves:
        # Read before the output is written (it may be the same file).
        halves = {}
        with gzip.open(o.halves, "rt") as f:
            for line in f:
                c = json.loads(line)
                halves[c["id"]] = c.get("half", "tuning")
        for c in cases:
            c["half"] = halves.get(c["id"], "held-out")
            if c["agent"] in o.tuning:
                c["half"] = "tuning"
        cases.sort(key=lambda c: c["half"] != "tuning")  # the tuning half first, each in source order
    with gzip.open(o.out, "wt") as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    by = collections.Counter((c["kind"], c["scratch"], c["truth"] is not None) for c in cases)
    summary = {"stats": dict(stats), "trajectories by agent": dict(per_agent), "cases": len(cases),
               "by kind, scratch, truth": {f"{k} scratch={s} truth={t}": v for (k, s, t), v in sorted(by.items())},
               "by repo": dict(collections.Counter(c["repo"] for c in cases)),
               "by agent": dict(collections.Counter(c["agent"] for c in cases)),
               "by half, kind, scratch, truth": {f"{h} {k} scratch={s} truth={t}": v for (h, k, s, t), v in sorted(
                   collections.Counter((c.get("half"), c["kind"], c["scratch"], c["truth"] is not None)
                                       for c in cases).items(), key=str)},
               "by half and repo": {f"{h} {r}": v for (h, r), v in sorted(
                   collections.Counter((c.get("half"), c["repo"]) for c in cases).items(), key=str)}}
    print(json.dumps(summary, indent=1))
    if o.stats:
        with open(o.stats, "w") as f:
            json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
