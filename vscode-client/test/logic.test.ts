// Unit tests of the extension's own logic (node's test runner).
import assert from "node:assert/strict";
import { mock, test } from "node:test";
import {
  candidateItems,
  discoverServer,
  historyMessage,
  initializationOptions,
  locateItems,
  matchItems,
  pathUnderCursor,
  problemMessage,
  requestMetric,
  restartPolicy,
  serverCandidates,
  serverLog,
  versionProblem,
  statusText,
  unresolvedMessage,
  visitReporter,
} from "../src/logic";

test("pathUnderCursor finds the path around the cursor", () => {
  const cases: [string, number, string | undefined][] = [
    ['import x from "./util/helpers.ts";', 20, "./util/helpers.ts"],
    ["see src/auth/login.py:42:7 for details", 8, "src/auth/login.py:42:7"],
    ["error at pkg/api/client.go(12,5)", 15, "pkg/api/client.go(12,5)"],
    ["[link](../docs/guide.md)", 12, "../docs/guide.md"],
    ["open C:\\Users\\x\\proj\\a.go.", 10, "C:\\Users\\x\\proj\\a.go"],
    ["the README.md file", 6, "README.md"],
    ["just words here", 6, undefined],
    ["", 0, undefined],
    ["tail src/a.go", 100, "src/a.go"],
  ];
  for (const [line, ch, want] of cases) {
    assert.equal(pathUnderCursor(line, ch), want, `${line} @${ch}`);
  }
});

test("QuickPick items show the name, the directory and why", () => {
  const items = matchItems([
    { uri: "file:///w/src/auth/auth_middleware.py", path: "src/auth/auth_middleware.py", score: 0.923, matchedIn: ["filename"], reason: "typo:filename" },
    { uri: "file:///w/README.md", path: "README.md", score: 0.5, matchedIn: ["filename", "directory"] },
  ]);
  assert.deepEqual(items[0], {
    label: "auth_middleware.py",
    description: "src/auth",
    detail: "0.92 · filename · typo:filename",
    uri: "file:///w/src/auth/auth_middleware.py",
  });
  assert.equal(items[1].description, "");
  assert.equal(items[1].detail, "0.50 · filename, directory");

  const range = { start: { line: 41, character: 0 }, end: { line: 41, character: 0 } };
  const cands = candidateItems([{ uri: "file:///w/a/b.go", path: "a/b.go", score: 0.7, reasons: ["typo:filename", "dir:exact"], range }]);
  assert.equal(cands[0].detail, "0.70 · typo:filename, dir:exact");
  assert.deepEqual(cands[0].range, range);

  const hits = locateItems([{ uri: "file:///w/src/x.cc", path: "src/x.cc", score: 0.97, via: "symbol", reason: "symbol: implements X (2 members)", range }]);
  assert.deepEqual(
    { label: hits[0].label, description: hits[0].description, detail: hits[0].detail },
    { label: "src/x.cc:42", description: "symbol · 0.97", detail: "symbol: implements X (2 members)" },
  );
});

test("the server is looked for in the setting, the extension, then PATH", () => {
  const cands = serverCandidates("", "/ext", "/usr/local/bin:/usr/bin", "linux");
  assert.deepEqual(cands, ["/ext/bin/wayfind", "/usr/local/bin/wayfind", "/usr/bin/wayfind"]);
  assert.deepEqual(serverCandidates(" /opt/wf ", "/ext", "", "linux"), ["/opt/wf", "/ext/bin/wayfind"]);
  assert.deepEqual(serverCandidates("", "C:\\ext", "C:\\bin;D:\\tools", "win32"), ["C:\\ext/bin/wayfind.exe", "C:\\bin/wayfind.exe", "D:\\tools/wayfind.exe"]);

  const exists = (set: string[]) => (p: string) => set.includes(p);
  assert.deepEqual(discoverServer("", cands, exists(["/usr/bin/wayfind", "/usr/local/bin/wayfind"])), { path: "/usr/local/bin/wayfind" });
  assert.deepEqual(discoverServer("", cands, exists(["/ext/bin/wayfind", "/usr/bin/wayfind"])), { path: "/ext/bin/wayfind" });
  assert.deepEqual(discoverServer("", cands, exists([])), {});
  // A setting naming a missing file is reported, not skipped.
  const withSetting = serverCandidates("/opt/wf", "/ext", "/usr/bin", "linux");
  assert.deepEqual(discoverServer("/opt/wf", withSetting, exists(["/usr/bin/wayfind"])), { missingSetting: "/opt/wf" });
});

test("settings become initializationOptions", () => {
  const settings = (values: Record<string, unknown>) => ({
    get<T>(key: string, def: T): T {
      return (key in values ? values[key] : def) as T;
    },
  });
  assert.deepEqual(initializationOptions(settings({})), {
    includeDirs: [],
    excludeGlobs: [],
    history: { size: 10000 },
    diagnostics: true,
  });
  assert.deepEqual(
    initializationOptions(settings({ includeDirs: ["vendor/x"], "history.size": 8, diagnostics: false, "model.dir": "/m", "model.precision": "fp32" })),
    { includeDirs: ["vendor/x"], excludeGlobs: [], history: { size: 8 }, diagnostics: false, model: { dir: "/m", precision: "fp32" } },
  );
});

test("the status bar counts files and symbols", () => {
  assert.equal(statusText({ ready: false, files: 0, symbols: 0 }), "wayfind: indexing…");
  assert.equal(statusText({ ready: true, files: 56970, symbols: 1234, symbolsReady: true }), "wayfind: 56,970 files · 1,234 symbols");
  assert.equal(statusText({ ready: true, files: 10, symbols: 0, symbolsReady: false }), "wayfind: 10 files · symbols indexing");
});

test("active-editor changes become debounced find/visited reports", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const sent: string[] = [];
    const report = visitReporter(
      (uri) => sent.push(uri),
      (uri) => uri.startsWith("file:///w/"),
      500,
    );
    // Flicking through three tabs reports only the one the user stops at.
    report("file:///w/a.ts");
    mock.timers.tick(100);
    report("file:///w/b.ts");
    mock.timers.tick(100);
    report("file:///w/c.ts");
    mock.timers.tick(499);
    assert.deepEqual(sent, []);
    mock.timers.tick(1);
    assert.deepEqual(sent, ["file:///w/c.ts"]);
    // The same file again, a file outside the workspace, another scheme,
    // no editor: nothing.
    for (const uri of ["file:///w/c.ts", "file:///elsewhere/x.ts", "untitled:Untitled-1", "git:/w/a.ts", undefined]) {
      report(uri);
      mock.timers.tick(500);
    }
    assert.deepEqual(sent, ["file:///w/c.ts"]);
    report("file:///w/a.ts");
    mock.timers.tick(500);
    assert.deepEqual(sent, ["file:///w/c.ts", "file:///w/a.ts"]);
  } finally {
    mock.timers.reset();
  }
});

test("what the history did to an old path reads as one line", () => {
  const note = { path: "loader.c", commit: "3f2a1c9e0d1b2c3a4f5e6d7c8b9a0f1e2d3c4b5a", date: "2024-05-01", subject: "remove legacy loader" };
  assert.equal(historyMessage("deleted", note), 'loader.c was deleted in 3f2a1c9 (2024-05-01) "remove legacy loader"');
  assert.equal(
    historyMessage("moved", { ...note, path: "builtin-rm.c", subject: "Move into builtin/" }, "builtin/rm.c"),
    'builtin-rm.c was moved to builtin/rm.c in 3f2a1c9 (2024-05-01) "Move into builtin/"',
  );
});

test("a path nothing resolved: nothing matches it, or the candidates; and while the history is read, that it may yet", () => {
  const cand = { uri: "file:///w/a/util.cpp", path: "a/util.cpp", score: 0.5, reasons: ["name:exact"] };
  const res = { resolved: null, candidates: [] as (typeof cand)[], exact: false };
  assert.equal(unresolvedMessage("x.c", res), "nothing in the workspace matches x.c");
  assert.equal(unresolvedMessage("util.cpp", { ...res, candidates: [cand] }), "no file is clearly util.cpp; candidates");
  assert.equal(
    unresolvedMessage("builtin-rm.c", { ...res, historyPending: true }),
    "nothing in the workspace matches builtin-rm.c (the repository's history is still being read: ask again in a moment)",
  );
  assert.equal(
    unresolvedMessage("util.cpp", { ...res, candidates: [cand], historyPending: true }),
    "no file is clearly util.cpp; candidates (the repository's history is still being read: ask again in a moment)",
  );
});

test("serverLog shows the server's lines once, whole, without the per-request JSON", () => {
  let requests = false;
  const log = serverLog(() => requests);
  assert.deepEqual(log("wayfind: indexed 12 fi"), []);
  assert.deepEqual(log('les\n{"method":"find/files","elapsedMs":3.24,"results":12}\nwayfind: sym'), ["wayfind: indexed 12 files"]);
  requests = true;
  assert.deepEqual(log('bols ready\n{"method":"find/locate","elapsedMs":1,"results":1,"error":"bad query"}\n\n'), [
    "wayfind: symbols ready",
    "find/locate 1.0 ms, 1 result: bad query",
  ]);
});

test("requestMetric reads only the metric lines", () => {
  const cases: [string, string | undefined][] = [
    ['{"method":"find/files","elapsedMs":3.24,"results":12}', "find/files 3.2 ms, 12 results"],
    ['{"method":"initialize","elapsedMs":0.5,"results":-1}', "initialize 0.5 ms"],
    ['{"method":"find/resolvePath","elapsedMs":2,"results":1,"rerankMs":7.25}', "find/resolvePath 2.0 ms, 1 result, model 7.3 ms"],
    ['{"not":"a metric"}', undefined],
    ["{broken", undefined],
    ["wayfind: panic in find/files", undefined],
  ];
  for (const [line, want] of cases) {
    assert.equal(requestMetric(line), want, line);
  }
});

test("problemMessage names the problem, the path and what to do", () => {
  assert.match(problemMessage({ kind: "missing-setting", path: "/x/wayfind" }), /wayfind\.serverPath names \/x\/wayfind, which does not exist.*make build.*Retry/);
  assert.match(problemMessage({ kind: "not-found", tried: ["/a/wayfind", "/b/wayfind"] }), /tried \/a\/wayfind, \/b\/wayfind/);
  assert.match(problemMessage({ kind: "failed", path: "/bin/false", error: "write EPIPE" }), /\/bin\/false did not start: write EPIPE/);
  assert.match(problemMessage({ kind: "stopped", path: "/w", restarts: 4 }), /stopped 5 times.*Retry/);
});

test("restartPolicy restarts up to its limit within the window, then again after it", () => {
  let now = 0;
  const again = restartPolicy(2, 1000, () => now);
  assert.equal(again(), 1);
  now = 10;
  assert.equal(again(), 2);
  now = 20;
  assert.equal(again(), 0); // a third death within the window: stay stopped
  now = 1015;
  assert.equal(again(), 1); // the first two have left the window
});

test("versionProblem accepts a wayfind binary and says why anything else is not one", () => {
  assert.equal(versionProblem(null, "wayfind 0.1.0\n", ""), undefined);
  assert.equal(versionProblem({ code: 1 }, "false (GNU coreutils) 9.1\n", ""), '`--version` exited with code 1 ("false (GNU coreutils) 9.1")');
  assert.equal(versionProblem({ code: "EACCES", message: "spawn /x EACCES" }, "", ""), "`--version` spawn /x EACCES");
  assert.equal(versionProblem(null, "", ""), 'it is not a wayfind binary (`--version` said "")');
});
