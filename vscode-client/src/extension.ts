// The wayfind extension: starts `wayfind lsp` for the workspace and adds
// its commands over the server's custom requests. Everything it decides is
// in logic.ts; this file only talks to VS Code.
//
// The commands are registered at activation, whatever becomes of the
// server: without one, each says why (the setting, the path tried, what
// to do) and offers Retry. Activation never waits on a message.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from "vscode-languageclient/node";
import {
  LocateResult,
  PickItem,
  ResolveResult,
  ServerProblem,
  Status,
  candidateItems,
  debounce,
  discoverServer,
  historyMessage,
  initializationOptions,
  locateItems,
  matchItems,
  pathUnderCursor,
  problemMessage,
  restartPolicy,
  serverCandidates,
  serverLog,
  statusText,
  unresolvedMessage,
  versionProblem,
  visitReporter,
} from "./logic";

// VISIT_DEBOUNCE_MS: a file the user stays on for this long was visited;
// tabs passed through on the way were not.
const VISIT_DEBOUNCE_MS = 500;
// A server that dies is started again up to MAX_RESTARTS times within
// RESTART_WINDOW_MS (vscode-languageclient's own default is 4 in 3
// minutes); past that it keeps dying for a reason a restart will not fix.
const MAX_RESTARTS = 4;
const RESTART_WINDOW_MS = 3 * 60 * 1000;

let client: LanguageClient | undefined;
// problem: why there is no running server (undefined while one runs or
// starts); starting: the start in progress, which commands wait for.
let problem: ServerProblem | undefined;
let starting: Promise<void> | undefined;
let statusItem: vscode.StatusBarItem;
let output: vscode.OutputChannel;
let extensionPath = "";

export function activate(context: vscode.ExtensionContext): void {
  extensionPath = context.extensionPath;
  output = vscode.window.createOutputChannel("wayfind");
  statusItem = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
  statusItem.command = "wayfind.findFile";
  statusItem.text = "$(sync~spin) wayfind: starting…";
  statusItem.show();

  // Where the user goes feeds the server's history (find/visited).
  const report = visitReporter(
    (uri) => void client?.sendNotification("find/visited", { uri, reason: "focus" }),
    (uri) => vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(uri)) !== undefined,
    VISIT_DEBOUNCE_MS,
  );
  context.subscriptions.push(
    output,
    statusItem,
    vscode.window.onDidChangeActiveTextEditor((e) => report(e?.document.uri.toString())),
    vscode.commands.registerCommand("wayfind.findFile", withServer(findFile)),
    vscode.commands.registerCommand("wayfind.resolvePath", withServer(resolvePath)),
    vscode.commands.registerCommand("wayfind.locate", withServer(locate)),
    vscode.commands.registerCommand("wayfind.reindex", withServer(reindex)),
    vscode.commands.registerCommand("wayfind.restartServer", () => restart()),
    vscode.commands.registerCommand("wayfind.showOutput", () => output.show(true)),
  );
  starting = start().then(() => report(vscode.window.activeTextEditor?.document.uri.toString()));
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  await c?.stop();
}

// withServer runs a command with the running client, or says why there
// is none (waiting first for a start in progress).
function withServer(run: (c: LanguageClient) => Promise<void>): () => Promise<void> {
  return async () => {
    await starting;
    if (!client || client.state !== State.Running) {
      tell(problem ?? { kind: "failed", path: "wayfind", error: "it is not running" });
      return;
    }
    try {
      await run(client);
    } catch (e) {
      void vscode.window.showErrorMessage(`wayfind: ${errorText(e)}`);
    }
  };
}

// tell shows a problem once with what to do; it never blocks the caller.
function tell(p: ServerProblem): void {
  const actions = p.kind === "failed" || p.kind === "stopped" ? ["Retry", "Open Settings", "Show Log"] : ["Retry", "Open Settings"];
  void vscode.window.showErrorMessage(problemMessage(p), ...actions).then((choice) => {
    if (choice === "Retry") {
      void restart();
    } else if (choice === "Open Settings") {
      void vscode.commands.executeCommand("workbench.action.openSettings", "wayfind.serverPath");
    } else if (choice === "Show Log") {
      output.show(true);
    }
  });
}

function fail(p: ServerProblem): void {
  problem = p;
  statusItem.text = "$(error) wayfind: no server";
  statusItem.tooltip = problemMessage(p);
  statusItem.command = "wayfind.restartServer";
  tell(p);
}

async function restart(): Promise<void> {
  const c = client;
  client = undefined;
  try {
    await c?.stop();
  } catch {
    // a server that is gone cannot be stopped; start a new one anyway
  }
  starting = start();
  await starting;
  if (client) {
    void vscode.window.showInformationMessage("wayfind: the server is running");
  }
}

// start finds the server and starts the client; what goes wrong becomes
// the problem the commands report.
async function start(): Promise<void> {
  problem = undefined;
  statusItem.text = "$(sync~spin) wayfind: starting…";
  statusItem.tooltip = undefined;
  statusItem.command = "wayfind.findFile";
  const cfg = vscode.workspace.getConfiguration("wayfind");
  const setting = cfg.get<string>("serverPath", "");
  const candidates = serverCandidates(setting, extensionPath, process.env.PATH ?? "", process.platform);
  const found = discoverServer(setting, candidates, (p) => {
    try {
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  });
  if (found.missingSetting) {
    fail({ kind: "missing-setting", path: found.missingSetting });
    return;
  }
  if (!found.path) {
    fail({ kind: "not-found", tried: candidates });
    return;
  }
  const path = found.path;
  const bad = await new Promise<string | undefined>((resolve) =>
    execFile(path, ["--version"], { timeout: 10_000 }, (err, stdout, stderr) => resolve(versionProblem(err, stdout, stderr))),
  );
  if (bad) {
    fail({ kind: "failed", path, error: bad });
    return;
  }
  const serverOptions: ServerOptions = { command: path, args: ["lsp"] };
  let running = false;
  const again = restartPolicy(MAX_RESTARTS, RESTART_WINDOW_MS);
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file" }],
    initializationOptions: initializationOptions(cfg),
    outputChannel: filteredChannel(output, () => cfg.get<boolean>("log.requests", false)),
    // A failed start is reported once, by start() (the client's own
    // "initialization failed" would be a second message for one problem).
    initializationFailedHandler: () => false,
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue, handled: true }),
      closed: () => {
        if (!running) {
          return { action: CloseAction.DoNotRestart, handled: true }; // start() reports it
        }
        const n = again();
        if (n === 0) {
          running = false;
          client = undefined;
          fail({ kind: "stopped", path, restarts: MAX_RESTARTS });
          return { action: CloseAction.DoNotRestart, handled: true };
        }
        output.appendLine(`wayfind: the server stopped; starting it again (${n} of ${MAX_RESTARTS})`);
        statusItem.text = `$(sync~spin) wayfind: restarting (${n} of ${MAX_RESTARTS})…`;
        return { action: CloseAction.Restart, handled: true };
      },
    },
  };
  const c = new LanguageClient("wayfind", "wayfind", serverOptions, clientOptions);
  c.onDidChangeState((e) => {
    if (e.newState === State.Running && running && client === c) {
      void vscode.window.showWarningMessage("wayfind: the server stopped and was started again");
      void pollStatus(c);
    }
  });
  try {
    await c.start();
  } catch (e) {
    try {
      await c.stop();
    } catch {
      // it never ran
    }
    fail({ kind: "failed", path, error: errorText(e) });
    return;
  }
  running = true;
  client = c;
  void pollStatus(c);
}

// filteredChannel is the output channel the client writes to, with the
// server's stderr cut into lines and its per-request JSON lines left out
// (serverLog).
function filteredChannel(out: vscode.OutputChannel, showRequests: () => boolean): vscode.OutputChannel {
  const lines = serverLog(showRequests);
  return {
    name: out.name,
    append: (chunk: string) => lines(chunk).forEach((l) => out.appendLine(l)),
    appendLine: (l: string) => out.appendLine(l),
    replace: (v: string) => out.replace(v),
    clear: () => out.clear(),
    show: (preserveFocus?: boolean) => out.show(preserveFocus),
    hide: () => out.hide(),
    dispose: () => {}, // the extension owns the channel across restarts
  } as vscode.OutputChannel;
}

function errorText(e: unknown): string {
  const s = e instanceof Error ? e.message : String(e);
  return s.replace(/^Error: /, "");
}

// pollStatus refreshes the status bar until files and symbols are indexed.
async function pollStatus(c: LanguageClient): Promise<void> {
  for (let i = 0; client === c && i < 600; i++) {
    try {
      const st = await c.sendRequest<Status>("find/status", {});
      if (client === c) {
        statusItem.text = statusText(st);
      }
      if (st.ready && st.symbolsReady !== false) {
        return;
      }
    } catch {
      // the server is starting or restarting; try again
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function open(item: PickItem): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(item.uri));
  const editor = await vscode.window.showTextDocument(doc);
  if (item.range) {
    const p = new vscode.Position(item.range.start.line, item.range.start.character);
    editor.selection = new vscode.Selection(p, p);
    editor.revealRange(new vscode.Range(p, p), vscode.TextEditorRevealType.InCenter);
  }
}

type Item = vscode.QuickPickItem & { target: PickItem };

const toItems = (items: PickItem[]): Item[] =>
  items.map((t) => ({ label: t.label, description: t.description, detail: t.detail, target: t }));

// findFile asks find/files as the user types; a new keystroke cancels the
// request before it.
async function findFile(c: LanguageClient): Promise<void> {
  const qp = vscode.window.createQuickPick<Item>();
  qp.placeholder = "File name: typos, words, CamelCase, dir/name";
  qp.matchOnDescription = false;
  qp.matchOnDetail = false;
  let pending: vscode.CancellationTokenSource | undefined;
  // The active file: matches near it come first, and with nothing typed
  // the server lists the recent files without it.
  const current = vscode.window.activeTextEditor?.document.uri.toString();
  const search = debounce(async (value: string) => {
    pending?.cancel();
    const cts = new vscode.CancellationTokenSource();
    pending = cts;
    qp.busy = true;
    try {
      const res = await c.sendRequest<{ matches: Parameters<typeof matchItems>[0] }>(
        "find/files",
        { query: value, limit: 30, current },
        cts.token,
      );
      if (!cts.token.isCancellationRequested) {
        // Keep the server's order: VS Code's own filter would re-sort it.
        qp.items = toItems(matchItems(res.matches)).map((i) => ({ ...i, alwaysShow: true }));
      }
    } catch {
      // cancelled, or a query the server refused: keep the last results
    } finally {
      if (pending === cts) {
        qp.busy = false;
      }
    }
  }, 80);
  qp.onDidChangeValue(search);
  qp.onDidAccept(() => {
    const pick = qp.selectedItems[0];
    qp.hide();
    if (pick) {
      void open(pick.target);
    }
  });
  qp.onDidHide(() => {
    pending?.cancel();
    qp.dispose();
  });
  qp.show();
  search(""); // the recent files, before the first keystroke
}

// resolvePath resolves the selection, or the path under the cursor.
async function resolvePath(c: LanguageClient): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage("wayfind: Resolve Path reads the path under the cursor; open a file first");
    return;
  }
  const sel = editor.selection;
  const text = sel.isEmpty
    ? pathUnderCursor(editor.document.lineAt(sel.active.line).text, sel.active.character)
    : editor.document.getText(sel).trim();
  if (!text) {
    void vscode.window.showInformationMessage("wayfind: no path under the cursor");
    return;
  }
  const res = await c.sendRequest<ResolveResult>("find/resolvePath", { path: text, from: editor.document.uri.toString() });
  if (res.resolved) {
    await open(candidateItems([res.resolved])[0]);
    if (res.moved) {
      void vscode.window.showInformationMessage(`wayfind: ${historyMessage("moved", res.moved, res.resolved.path)}`);
    }
    return;
  }
  if (res.gone) {
    // The file is gone: say so, and when; there is nothing to open.
    void vscode.window.showInformationMessage(`wayfind: ${historyMessage("deleted", res.gone)}`);
    return;
  }
  if (res.candidates.length === 0) {
    void vscode.window.showInformationMessage(`wayfind: ${unresolvedMessage(text, res)}`);
    return;
  }
  const pick = await vscode.window.showQuickPick(toItems(candidateItems(res.candidates)), {
    placeHolder: `${unresolvedMessage(text, res)}:`,
  });
  if (pick) {
    await open(pick.target);
  }
}

async function locate(c: LanguageClient): Promise<void> {
  const question = await vscode.window.showInputBox({ prompt: "Where is… (e.g. where is CommandRouter implemented)" });
  if (!question) {
    return;
  }
  const current = vscode.window.activeTextEditor?.document.uri.toString();
  const res = await c.sendRequest<LocateResult>("find/locate", { query: question, current });
  if (res.results.length === 0) {
    void vscode.window.showInformationMessage(`wayfind: nothing found for "${res.term}" (tried ${res.strategies.join(", ")})`);
    return;
  }
  const pick = await vscode.window.showQuickPick(toItems(locateItems(res.results)), {
    placeHolder: `"${res.term}": confidence ${res.confidence.toFixed(2)}, tried ${res.strategies.join(", ")}`,
  });
  if (pick) {
    await open(pick.target);
  }
}

async function reindex(c: LanguageClient): Promise<void> {
  const st = await c.sendRequest<Status>("find/reindex", {});
  if (client === c) {
    statusItem.text = statusText(st);
  }
  void vscode.window.showInformationMessage(`wayfind: reindexed, ${st.files} files and ${st.symbols} symbols`);
}
