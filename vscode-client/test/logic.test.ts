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
  serverCandidates,
  statusText,
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
