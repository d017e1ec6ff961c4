// The wayfind extension: starts `wayfind lsp` for the workspace and adds
// four commands over its custom requests. Everything it decides is in
// logic.ts; this file only talks to VS Code.
import * as fs from "node:fs";
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";
import {
  LocateResult,
  PickItem,
  ResolveResult,
  Status,
  candidateItems,
  debounce,
  discoverServer,
  historyMessage,
  initializationOptions,
  locateItems,
  matchItems,
  pathUnderCursor,
  serverCandidates,
  statusText,
  visitReporter,
} from "./logic";

let client: LanguageClient | undefined;

// VISIT_DEBOUNCE_MS: a file the user stays on for this long was visited;
// tabs passed through on the way were not.
const VISIT_DEBOUNCE_MS = 500;
let statusItem: vscode.StatusBarItem | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const cfg = vscode.workspace.getConfiguration("wayfind");
  const setting = cfg.get<string>("serverPath", "");
  const found = discoverServer(
    setting,
    serverCandidates(setting, context.extensionPath, process.env.PATH ?? "", process.platform),
    (p) => {
      try {
        return fs.statSync(p).isFile();
      } catch {
        return false;
      }
    },
  );
  if (!found.path) {
    const what = found.missingSetting
      ? `wayfind.serverPath names ${found.missingSetting}, which does not exist.`
      : "The wayfind server was not found (wayfind.serverPath, the extension's bin/wayfind, PATH).";
    const choice = await vscode.window.showErrorMessage(what, "Open Settings");
    if (choice === "Open Settings") {
      await vscode.commands.executeCommand("workbench.action.openSettings", "wayfind.serverPath");
    }
    return;
  }

  const serverOptions: ServerOptions = { command: found.path, args: ["lsp"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file" }],
    initializationOptions: initializationOptions(cfg),
  };
  client = new LanguageClient("wayfind", "wayfind", serverOptions, clientOptions);
  await client.start();

  statusItem = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
  statusItem.command = "wayfind.findFile";
  statusItem.text = "wayfind: indexing…";
  statusItem.show();
  context.subscriptions.push(statusItem);
  void pollStatus();

  // Where the user goes feeds the server's history (find/visited).
  const c = client;
  const report = visitReporter(
    (uri) => void c.sendNotification("find/visited", { uri, reason: "focus" }),
    (uri) => vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(uri)) !== undefined,
    VISIT_DEBOUNCE_MS,
  );
  report(vscode.window.activeTextEditor?.document.uri.toString());
  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor((e) => report(e?.document.uri.toString())),
    vscode.commands.registerCommand("wayfind.findFile", findFile),
    vscode.commands.registerCommand("wayfind.resolvePath", resolvePath),
    vscode.commands.registerCommand("wayfind.locate", locate),
    vscode.commands.registerCommand("wayfind.reindex", reindex),
  );
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}

// pollStatus refreshes the status bar until files and symbols are indexed.
async function pollStatus(): Promise<void> {
  for (let i = 0; client && i < 600; i++) {
    try {
      const st = await client.sendRequest<Status>("find/status", {});
      if (statusItem) {
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
async function findFile(): Promise<void> {
  if (!client) {
    return;
  }
  const c = client;
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
async function resolvePath(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor) {
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
  const res = await client.sendRequest<ResolveResult>("find/resolvePath", { path: text, from: editor.document.uri.toString() });
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
    void vscode.window.showInformationMessage(`wayfind: nothing in the workspace matches ${text}`);
    return;
  }
  const pick = await vscode.window.showQuickPick(toItems(candidateItems(res.candidates)), {
    placeHolder: `No file is clearly ${text}; candidates:`,
  });
  if (pick) {
    await open(pick.target);
  }
}

async function locate(): Promise<void> {
  if (!client) {
    return;
  }
  const question = await vscode.window.showInputBox({ prompt: "Where is… (e.g. where is CommandRouter implemented)" });
  if (!question) {
    return;
  }
  const current = vscode.window.activeTextEditor?.document.uri.toString();
  const res = await client.sendRequest<LocateResult>("find/locate", { query: question, current });
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

async function reindex(): Promise<void> {
  if (!client) {
    return;
  }
  const st = await client.sendRequest<Status>("find/reindex", {});
  if (statusItem) {
    statusItem.text = statusText(st);
  }
  void vscode.window.showInformationMessage(`wayfind: reindexed, ${st.files} files and ${st.symbols} symbols`);
}
