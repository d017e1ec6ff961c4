// The bundled extension activated against a small fake of the vscode API
// (fast; test/e2e drives the real VS Code): whatever becomes of the
// server, every command is registered at activation, and without a
// server each says why, with the path it tried and what to do.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import Module from "node:module";
import { test } from "node:test";

const require = createRequire(import.meta.url);

const COMMANDS = [
  "wayfind.findFile",
  "wayfind.resolvePath",
  "wayfind.locate",
  "wayfind.reindex",
  "wayfind.restartServer",
  "wayfind.showOutput",
];

interface Host {
  shown: { msg: string; actions: string[] }[];
  commands: Map<string, () => Promise<void>>;
  executed: unknown[][];
  status: { text: string; command?: string; tooltip?: string };
  choose: string | undefined;
}

// activateWith loads a fresh copy of the bundle against a fake host whose
// wayfind.serverPath is serverPath and whose PATH is pathEnv.
async function activateWith(serverPath: string, pathEnv: string): Promise<Host> {
  const host: Host = { shown: [], commands: new Map(), executed: [], status: { text: "" }, choose: undefined };
  const fakeVscode = {
    workspace: {
      getConfiguration: () => ({
        get: <T>(key: string, def: T): T => (key === "serverPath" ? (serverPath as T) : def),
      }),
      getWorkspaceFolder: () => undefined,
    },
    window: {
      showErrorMessage: async (msg: string, ...actions: string[]) => {
        host.shown.push({ msg, actions });
        return host.choose;
      },
      showInformationMessage: async (msg: string) => {
        host.shown.push({ msg, actions: [] });
        return undefined;
      },
      createStatusBarItem: () => ({ ...host.status, show: () => {}, dispose: () => {} }),
      createOutputChannel: (name: string) => ({ name, appendLine: () => {}, show: () => {}, dispose: () => {} }),
      onDidChangeActiveTextEditor: () => ({ dispose: () => {} }),
      activeTextEditor: undefined,
    },
    commands: {
      executeCommand: async (...args: unknown[]) => {
        host.executed.push(args);
      },
      registerCommand: (name: string, fn: () => Promise<void>) => {
        host.commands.set(name, fn);
        return { dispose: () => {} };
      },
    },
    StatusBarAlignment: { Left: 1 },
  };
  // vscode-languageclient subclasses many vscode classes as it loads:
  // any name the fake lacks is an empty class (or namespace).
  const served = new Proxy(fakeVscode as Record<string, unknown>, {
    get: (target, name: string) =>
      name in target ? target[name] : /^[A-Z]/.test(name) ? class {} : new Proxy({}, { get: () => () => undefined }),
  });
  const load = (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load;
  (Module as unknown as { _load: unknown })._load = (req: string, ...rest: unknown[]) =>
    req === "vscode" ? served : load(req, ...rest);
  const savedPath = process.env.PATH;
  process.env.PATH = pathEnv;
  try {
    const bundle = require.resolve("../dist/extension.js");
    delete require.cache[bundle];
    const ext = require(bundle) as { activate: (ctx: unknown) => void };
    ext.activate({ extensionPath: "/nonexistent-extension", subscriptions: [] });
    // A command waits for the start in progress, then answers.
    await host.commands.get("wayfind.findFile")?.();
  } finally {
    (Module as unknown as { _load: unknown })._load = load;
    process.env.PATH = savedPath;
  }
  return host;
}

test("a setting naming a missing server: every command is there and says so", async () => {
  const host = await activateWith("/nonexistent/wayfind", "/nonexistent-bin");
  assert.deepEqual([...host.commands.keys()].sort(), [...COMMANDS].sort());
  // Once at activation, once for the command run above.
  assert.equal(host.shown.length, 2);
  for (const s of host.shown) {
    assert.match(s.msg, /wayfind\.serverPath names \/nonexistent\/wayfind, which does not exist/);
    assert.match(s.msg, /make build/);
    assert.deepEqual(s.actions, ["Retry", "Open Settings"]);
  }
  for (const name of ["wayfind.resolvePath", "wayfind.locate", "wayfind.reindex"]) {
    const n: number = host.shown.length;
    await host.commands.get(name)!();
    assert.equal(host.shown.length, n + 1, name);
    assert.match(host.shown.at(-1)!.msg, /does not exist/, name);
  }
});

test("no server anywhere: the message names every place tried", async () => {
  const host = await activateWith("", "/nonexistent-bin:/also-missing");
  assert.deepEqual([...host.commands.keys()].sort(), [...COMMANDS].sort());
  assert.match(
    host.shown[0].msg,
    /not found \(tried \/nonexistent-extension\/bin\/wayfind, \/nonexistent-bin\/wayfind, \/also-missing\/wayfind\)/,
  );
});

test("Open Settings opens the wayfind.serverPath setting", async () => {
  const savedChoose = "Open Settings";
  const host = await activateWith("/nonexistent/wayfind", "/nonexistent-bin");
  host.choose = savedChoose;
  await host.commands.get("wayfind.locate")!();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(host.executed.at(-1), ["workbench.action.openSettings", "wayfind.serverPath"]);
});
