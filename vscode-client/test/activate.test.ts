// The bundled extension activated against a small fake of the vscode API:
// with no server to be found it says so once, offering the setting, and
// starts nothing.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import Module from "node:module";
import { test } from "node:test";

const require = createRequire(import.meta.url);

test("a missing server is reported once, with the setting to change", async () => {
  const shown: string[] = [];
  const executed: unknown[][] = [];
  const fakeVscode = {
    workspace: {
      getConfiguration: () => ({
        get: <T>(key: string, def: T): T => (key === "serverPath" ? ("/nonexistent/wayfind" as T) : def),
      }),
    },
    window: {
      showErrorMessage: async (msg: string, ...actions: string[]) => {
        shown.push(msg + " [" + actions.join(",") + "]");
        return "Open Settings";
      },
      createStatusBarItem: () => assert.fail("a status bar item without a server"),
    },
    commands: {
      executeCommand: async (...args: unknown[]) => {
        executed.push(args);
      },
      registerCommand: () => assert.fail("commands registered without a server"),
    },
    StatusBarAlignment: { Left: 1 },
  };
  // vscode-languageclient subclasses many vscode classes as it loads:
  // any name the fake lacks is an empty class (or namespace).
  const served = new Proxy(fakeVscode as Record<string, unknown>, {
    get: (target, name: string) =>
      name in target ? target[name] : /^[A-Z]/.test(name) ? class {} : new Proxy({}, { get: () => () => undefined }),
  });
  // Serve the fake to the bundle's require("vscode").
  const load = (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load;
  (Module as unknown as { _load: unknown })._load = (req: string, ...rest: unknown[]) =>
    req === "vscode" ? served : load(req, ...rest);
  try {
    const ext = require("../dist/extension.js") as { activate: (ctx: unknown) => Promise<void> };
    await ext.activate({ extensionPath: "/nonexistent-extension", subscriptions: [] });
  } finally {
    (Module as unknown as { _load: unknown })._load = load;
  }
  assert.equal(shown.length, 1);
  assert.match(shown[0], /wayfind\.serverPath names \/nonexistent\/wayfind, which does not exist\. \[Open Settings\]/);
  assert.deepEqual(executed, [["workbench.action.openSettings", "wayfind.serverPath"]]);
});
