// The extension in a real VS Code (issue 27): code-server serves VS Code
// 1.99 on 127.0.0.1, Debian's Chromium shows it, playwright-core types
// and clicks as a person would. Every step asserts what is on screen and
// leaves a screenshot in e2e/artifacts/. Run by scripts/vscode-e2e.sh
// (make test-vscode), which installs what it needs first.
//
// Usage: node vscode.e2e.mjs --server BIN --vsix VSIX [--code-server BIN]
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const serverBin = path.resolve(args.server ?? "bin/wayfind");
const vsix = path.resolve(args.vsix ?? "vscode-client/dist/wayfind.vsix");
const codeServer = path.resolve(args["code-server"] ?? path.join(here, "node_modules/.bin/code-server"));
const fixture = path.resolve(here, "../../testdata/vscode/workspace");
const artifacts = path.join(here, "artifacts");
const STEP_TIMEOUT = 30_000;
// What the server finds in the fixture: its files, and the types and
// methods its Go files define.
const FIXTURE_FILES = 7;
const FIXTURE_SYMBOLS = 6;

fs.rmSync(artifacts, { recursive: true, force: true });
fs.mkdirSync(artifacts, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wayfind-vscode-"));
const ws = path.join(tmp, "ws");
const userData = path.join(tmp, "data");
const settingsFile = path.join(userData, "User", "settings.json");

// --- the host -------------------------------------------------------------

function treeHash(dir) {
  const h = createHash("sha256");
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      h.update(path.relative(dir, p));
      if (e.isDirectory()) {
        walk(p);
      } else {
        h.update(fs.readFileSync(p));
      }
    }
  };
  walk(dir);
  return h.digest("hex");
}

function writeSettings(serverPath) {
  fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
  fs.writeFileSync(
    settingsFile,
    JSON.stringify(
      {
        "wayfind.serverPath": serverPath,
        "workbench.startupEditor": "none",
        "security.workspace.trust.enabled": false,
        "telemetry.telemetryLevel": "off",
        "extensions.autoUpdate": false,
        "extensions.autoCheckUpdates": false,
        "workbench.tips.enabled": false,
        "update.mode": "none",
        "files.hotExit": "off",
        "workbench.editor.enablePreview": false,
      },
      null,
      2,
    ),
  );
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// until polls fn until it returns a truthy value; what names it in the error.
async function until(what, fn, timeout = STEP_TIMEOUT) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) {
        return last;
      }
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    }
    await sleep(100);
  }
}

// serverPids lists the wayfind servers running our binary.
function serverPids() {
  try {
    return execFileSync("pgrep", ["-f", `^${serverBin} lsp`]).toString().trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

// --- the steps ------------------------------------------------------------

const results = [];
let page;
let shot = 0;

async function step(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, ok: true, ms: Date.now() - t0 });
    console.log(`ok ${results.length} - ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    results.push({ name, ok: false, ms: Date.now() - t0, error: e.message });
    console.log(`not ok ${results.length} - ${name}\n  ${e.message.replace(/\n/g, "\n  ")}`);
  } finally {
    shot++;
    const file = path.join(artifacts, `${String(shot).padStart(2, "0")}-${name.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}.png`);
    await page?.screenshot({ path: file }).catch(() => {});
  }
}

// snap keeps a screenshot of the moment, beside each step's own.
async function snap(name) {
  await page.screenshot({ path: path.join(artifacts, `${String(shot + 1).padStart(2, "0")}-${name}.png`) });
}

const quickInput = () => page.locator(".quick-input-widget");
const quickBox = () => page.locator(".quick-input-widget .quick-input-box input");

// rows lists the quick pick's visible rows as {label, description,
// text}: text the row's whole text, its detail line with it.
async function rows() {
  return page.locator(".quick-input-widget .monaco-list-row").evaluateAll((els) =>
    els
      .filter((e) => e.offsetParent !== null)
      .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
      .map((e) => ({
        label: e.querySelector(".label-name")?.textContent?.trim() ?? "",
        description: e.querySelector(".label-description")?.textContent?.trim() ?? "",
        text: e.textContent ?? "",
      })),
  );
}

// quickOpen opens the command palette with F1 and types text into it
// (">title" runs a command, ":line:col" goes to a line) — typing only once
// the palette is there: letters typed too early land in the editor.
async function quickOpen(text) {
  await page.locator(".monaco-workbench").waitFor();
  await page.keyboard.press("F1");
  await quickBox().waitFor({ state: "visible" });
  await until("the command palette's '>'", async () => (await quickBox().inputValue()).startsWith(">"));
  await quickBox().fill(text);
}

// palette runs a command by its title, as a person does: F1, the title,
// Enter.
async function palette(title) {
  await quickOpen(`>${title}`);
  await until(`the command '${title}' listed`, async () => (await rows()).some((r) => r.label === title));
  await page.keyboard.press("Enter");
}

// waitQuickPick waits for a quick pick whose placeholder starts with prefix.
async function waitQuickPick(prefix) {
  await until(`a quick pick "${prefix}…"`, async () => {
    if (!(await quickInput().isVisible())) {
      return false;
    }
    const ph = (await quickBox().getAttribute("placeholder")) ?? "";
    return ph.startsWith(prefix) && (await quickBox().inputValue()) === "";
  });
}

// firstRow waits until the quick pick's first row is label in dir — with
// typed, a row of the typed query's answer (its detail "score · why"):
// Find File shows the recent files ("history:recent") until the answer
// arrives, and a check that passes on them, or an Enter pressed while the
// list is replaced, tests nothing.
async function firstRow(label, description, what, typed = false) {
  await until(what, async () => {
    const r = await rows();
    return r.length > 0 && r[0].label === label && r[0].description === description && (!typed || (r[0].text.includes(" · ") && !r[0].text.includes("history:recent")));
  });
}

async function breadcrumbs() {
  return (await page.locator(".breadcrumbs-control .monaco-breadcrumb-item").allTextContents()).map((s) => s.trim()).filter(Boolean);
}

async function activeFileIs(rel) {
  const want = rel.split("/");
  await until(`the editor showing ${rel}`, async () => {
    const b = await breadcrumbs();
    return want.every((p, i) => b[i] === p) ? b : false;
  });
}

async function cursorLine() {
  const t = await page.locator('[id="status.editor.selection"]').textContent();
  const m = /Ln (\d+)/.exec(t ?? "");
  return m ? Number(m[1]) : 0;
}

async function statusText() {
  return (await page.locator(".statusbar-item").allTextContents()).map((s) => s.trim()).find((s) => s.startsWith("wayfind")) ?? "";
}

async function toasts() {
  return page.locator(".notifications-toasts .notification-list-item-message").allTextContents();
}

async function clearNotifications() {
  await palette("Notifications: Clear All Notifications");
  await until("no notifications", async () => (await toasts()).length === 0);
}

// gotoLineCol puts the cursor at line:col (1-based) of the active editor,
// through Go to Line (":line:col" in the quick open).
async function gotoLineCol(line, col) {
  await quickOpen(`:${line}:${col}`);
  await sleep(200);
  await page.keyboard.press("Enter");
  await until(`the cursor at ${line}:${col}`, async () =>
    ((await page.locator('[id="status.editor.selection"]').textContent()) ?? "").startsWith(`Ln ${line}, Col ${col}`),
  );
}

async function openWithFindFile(query, rel) {
  await palette("wayfind: Find File");
  await waitQuickPick("File name");
  await page.keyboard.type(query, { delay: 30 });
  const base = path.posix.basename(rel);
  const dir = path.posix.dirname(rel) === "." ? "" : path.posix.dirname(rel);
  await firstRow(base, dir, `${rel} first for "${query}"`, true);
  await snap(`find-file-${query.replace(/[^a-z0-9]+/gi, "-")}`);
  await page.keyboard.press("Enter");
  await activeFileIs(rel);
}

// load (re)opens the workspace in the browser and waits for the workbench.
async function load(port) {
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
  await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
  await page.locator(".statusbar").waitFor();
}

async function waitReady() {
  await until("the status bar's file and symbol counts", async () => (await statusText()) === `wayfind: ${FIXTURE_FILES} files · ${FIXTURE_SYMBOLS} symbols`, 60_000);
}

// --- main -----------------------------------------------------------------

const before = treeHash(fixture);
fs.cpSync(fixture, ws, { recursive: true });
writeSettings(serverBin);
const port = await freePort();
const env = { ...process.env, XDG_CONFIG_HOME: path.join(tmp, "config"), XDG_DATA_HOME: path.join(tmp, "share") };
const csArgs = ["--extensions-dir", path.join(tmp, "extensions"), "--user-data-dir", userData];
execFileSync(codeServer, [...csArgs, "--install-extension", vsix], { env, stdio: "pipe" });
const csLog = fs.openSync(path.join(artifacts, "code-server.log"), "w");
const cs = spawn(
  codeServer,
  [
    ...csArgs,
    "--auth",
    "none",
    "--bind-addr",
    `127.0.0.1:${port}`,
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
    "--ignore-last-opened",
    ws,
  ],
  { env, stdio: ["ignore", csLog, csLog], detached: true },
);
let browser;
let failed = false;
const t0 = Date.now();
try {
  await until(
    "code-server to listen",
    () =>
      new Promise((resolve) => {
        const s = net.connect(port, "127.0.0.1", () => {
          s.end();
          resolve(true);
        });
        s.on("error", () => resolve(false));
      }),
    60_000,
  );
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await load(port);

  await step("status bar: files and symbols once indexed", async () => {
    await waitReady();
  });

  await step("Find File: a typo finds the file, Enter opens it", async () => {
    await openWithFindFile("cartclinet", "services/cart/client.go");
  });

  await step("Find File: words and a directory", async () => {
    await openWithFindFile("docs guide", "docs/guide.md");
  });

  await step("Find File: the recent files before typing", async () => {
    await openWithFindFile("cart handler", "services/cart/handler.go");
    await sleep(800); // the extension reports a visit after 500 ms on a file
    await palette("wayfind: Find File");
    await waitQuickPick("File name");
    // The active file is left out; the one visited before it is first.
    await firstRow("guide.md", "docs", "docs/guide.md first among the recent files");
    await snap("find-file-recent");
    const r = await rows();
    if (!r.some((x) => x.label === "client.go" && x.description === "services/cart")) {
      throw new Error(`services/cart/client.go not among the recent files: ${JSON.stringify(r)}`);
    }
    await page.keyboard.press("Escape");
    await quickInput().waitFor({ state: "hidden" });
  });

  await step("Resolve Path: the path under the cursor", async () => {
    await openWithFindFile("guide", "docs/guide.md");
    await gotoLineCol(3, 30); // in "services/ship/client.go"
    await palette("wayfind: Resolve Path");
    await activeFileIs("services/ship/client.go");
  });

  await step("Find File: a name two files share, the copy beside the active file first", async () => {
    // Resolve Path left services/ship/client.go active; the cart's
    // handler.go was opened before (the visits lean to services/cart),
    // and with neither the cart's copy comes first (the paths' order).
    await activeFileIs("services/ship/client.go");
    await openWithFindFile("handler.go", "services/ship/handler.go");
  });

  await step("Find File: the copy the user is in after the other", async () => {
    // In services/ship/handler.go, the name asked for is its own: the
    // extension names it as current, and no one looks for the file they
    // are in, so the cart's copy comes first (without that rule the
    // active file, nearest of all, would).
    await activeFileIs("services/ship/handler.go");
    await openWithFindFile("handler.go", "services/cart/handler.go");
  });

  await step("broken link: a warning, and its quick fix applied", async () => {
    await openWithFindFile("guide", "docs/guide.md");
    await until("one warning in the status bar", async () =>
      /\b1\b/.test((await page.locator('[id="status.problems"]').getAttribute("aria-label")) ?? ""),
    );
    await until("the squiggle under the broken link", async () => (await page.locator(".editor-instance .squiggly-warning").count()) > 0);
    await gotoLineCol(5, 64); // in "clinet.go"
    await page.keyboard.press("Control+.");
    const fix = page.locator(".action-widget .monaco-list-row", { hasText: "Change to ../services/cart/client.go" });
    await fix.waitFor({ timeout: STEP_TIMEOUT });
    await snap("quick-fix");
    await page.keyboard.press("Enter");
    // The editor's text as shown; a long line may be wrapped (VS Code 1.139
    // opens the chat beside the editor), so the rows are joined.
    const shown = async () => (await page.locator(".editor-group-container.active .view-line").allTextContents()).join("").replace(/\u00a0/g, " ");
    await until("the link fixed in the editor", async () => (await shown()).includes("(../services/cart/client.go)"));
    await until("no warning left", async () => (await page.locator(".editor-instance .squiggly-warning").count()) === 0);
    // Leave the copy as it was (the fixture itself is never touched).
    await palette("File: Revert File");
    await until("the broken link back", async () => (await shown()).includes("(../services/cart/clinet.go)"));
  });

  await step("Locate: opens at the definition's line", async () => {
    await palette("wayfind: Locate");
    await until("Locate's input box", async () => (await quickInput().isVisible()) && !(await quickBox().inputValue()).startsWith(">"));
    await page.keyboard.type("where is CartClient implemented", { delay: 10 });
    await page.keyboard.press("Enter");
    await waitQuickPick('"CartClient"');
    await firstRow("services/cart/client.go:4", "symbol · 0.97", "the struct's line first");
    await snap("locate-results");
    await page.keyboard.press("Enter");
    await activeFileIs("services/cart/client.go");
    await until("the cursor on line 4", async () => (await cursorLine()) === 4);
  });

  await step("Reindex: a message with the counts", async () => {
    await clearNotifications();
    await palette("wayfind: Reindex");
    await until("the reindex message", async () => (await toasts()).some((t) => t.includes(`wayfind: reindexed, ${FIXTURE_FILES} files and ${FIXTURE_SYMBOLS} symbols`)));
    await waitReady();
    await clearNotifications();
  });

  await step("the log: each line once, no raw JSON", async () => {
    await palette("wayfind: Show Log");
    const text = async () => (await page.locator(".panel .view-line").allTextContents()).join("\n").replace(/\u00a0/g, " ");
    await until("the wayfind log", async () => (await text()).includes("wayfind: indexed"));
    const t = await text();
    const indexed = t.split("\n").filter((l) => l.includes(`wayfind: indexed ${FIXTURE_FILES} files`));
    if (indexed.length !== 2) {
      // once at start, once for Reindex
      throw new Error(`"indexed ${FIXTURE_FILES} files" logged ${indexed.length} times, want 2 (start, reindex):\n${t}`);
    }
    if (t.includes('{"method"')) {
      throw new Error(`raw JSON in the log:\n${t}`);
    }
    await palette("View: Hide Panel");
  });

  await step("server missing: every command answers with what to do", async () => {
    writeSettings("/nonexistent/wayfind");
    await load(port);
    const want = "wayfind.serverPath names /nonexistent/wayfind, which does not exist";
    await until("the missing-server message", async () => (await toasts()).some((t) => t.includes(want)));
    await until("the status bar saying so", async () => (await statusText()).includes("no server"));
    await snap("server-missing");
    for (const cmd of ["wayfind: Find File", "wayfind: Locate", "wayfind: Reindex"]) {
      await clearNotifications();
      await palette(cmd);
      const t = await until(`${cmd}'s message`, async () => {
        const ts = await toasts();
        return ts.length > 0 ? ts : false;
      });
      if (!t.some((x) => x.includes(want) && x.includes("make build")) || t.some((x) => /not found/.test(x) && /command/.test(x))) {
        throw new Error(`${cmd}: ${JSON.stringify(t)}`);
      }
    }
    if ((await page.locator(".statusbar-item", { hasText: "Activating Extensions" }).count()) > 0) {
      throw new Error("activation still waiting");
    }
    await clearNotifications();
  });

  await step("server exiting at once: a clear message, commands answer", async () => {
    writeSettings("/bin/false");
    await load(port);
    await until("the failed-start message", async () => (await toasts()).some((t) => t.includes("the server /bin/false did not start")));
    await clearNotifications();
    await palette("wayfind: Find File");
    await until("Find File's message", async () => (await toasts()).some((t) => t.includes("/bin/false did not start")));
    await clearNotifications();
  });

  await step("server crashing mid-session: restarted, and said so", async () => {
    writeSettings(serverBin);
    await load(port);
    await waitReady();
    const pids = await until("the server's process", async () => {
      const p = serverPids();
      return p.length > 0 ? p : false;
    });
    const victim = Math.max(...pids);
    process.kill(victim, "SIGKILL");
    await until("the restart message", async () => (await toasts()).some((t) => t.includes("the server stopped and was started again")));
    await snap("server-restarted");
    await waitReady();
    if (serverPids().includes(victim)) {
      throw new Error(`server ${victim} still running`);
    }
    await clearNotifications();
    await openWithFindFile("cartclient", "services/cart/client.go");
  });
} catch (e) {
  failed = true;
  console.log(`not ok - the harness: ${e.stack ?? e}`);
} finally {
  await browser?.close().catch(() => {});
  try {
    process.kill(-cs.pid, "SIGTERM");
  } catch {
    // already gone
  }
  await sleep(1000);
  try {
    process.kill(-cs.pid, "SIGKILL");
  } catch {
    // gone
  }
  fs.closeSync(csLog);
}

// Nothing left running, the fixture untouched.
const left = await until("every server to exit", async () => (serverPids().length === 0 ? [] : false), 10_000).catch(() => serverPids());
if (left.length > 0) {
  failed = true;
  console.log(`not ok - servers left running: ${left.join(", ")}`);
  left.forEach((p) => process.kill(p, "SIGKILL"));
}
if (treeHash(fixture) !== before) {
  failed = true;
  console.log("not ok - the fixture changed");
}
fs.rmSync(tmp, { recursive: true, force: true });
const bad = results.filter((r) => !r.ok);
console.log(
  `# ${results.length - bad.length} of ${results.length} steps passed in ${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in ${artifacts}`,
);
process.exit(failed || bad.length > 0 || results.length === 0 ? 1 : 0);
