// Drives `wayfind lsp` the way VS Code's client does, with the same
// libraries, and writes what it saw to a JSON file that lsp/clients_test.go
// asserts on. Usage: node check.mjs WAYFIND PROJECT_DIR SECOND_DIR OUT.json
import { spawn } from 'node:child_process';
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection, StreamMessageReader, StreamMessageWriter, CancellationTokenSource,
} from 'vscode-jsonrpc/node';

const [bin, project, second, outFile] = process.argv.slice(2);
const uri = (p) => pathToFileURL(p).href;
const out = { progress: [], diagnostics: [], serverRequests: [] };

function start() {
  const child = spawn(bin, ['lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.on('data', () => {}); // metrics lines; not this test's business
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  conn.onRequest((method) => { out.serverRequests.push(method); return null; });
  conn.onNotification('$/progress', (p) => out.progress.push(p.value.kind));
  conn.onNotification('textDocument/publishDiagnostics', (p) => out.diagnostics.push(p));
  conn.onNotification(() => {});
  conn.listen();
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, conn, exited };
}

const wait = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, pred, ms = 15000) {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out waiting for ' + what);
    await wait(10);
  }
}

const { conn, exited } = start();
const init = await conn.sendRequest('initialize', {
  processId: process.pid,
  rootUri: uri(project),
  workspaceFolders: [{ uri: uri(project), name: 'project' }],
  capabilities: {
    window: { workDoneProgress: true },
    workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true },
  },
  initializationOptions: { history: { size: 8 } },
});
out.capabilities = init.capabilities;
conn.sendNotification('initialized', {});
await until('progress end', () => out.progress.includes('end'));

out.status = await conn.sendRequest('find/status', {});
out.resolve = await conn.sendRequest('find/resolvePath', { path: 'src/auth/midleware.py:2' });
out.files = await conn.sendRequest('find/files', { query: 'midlware', limit: 3 });
out.pathFiles = await conn.sendRequest('find/files', { query: 'authmid', limit: 3 }); // directory + name
out.workspaceSymbol = await conn.sendRequest('workspace/symbol', { query: 'Socket' });
out.documentSymbol = await conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri: uri(join(project, 'include/net/socket.h')) } });

// A file created on disk and reported the way VS Code reports it.
const created = join(project, 'src', 'auth', 'created_later.py');
writeFileSync(created, 'x = 1\n');
conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri(created), type: 1 }] });
out.created = await conn.sendRequest('find/resolvePath', { path: 'src/auth/created_later.py' });

// A second workspace folder added at runtime.
mkdirSync(join(second, 'lib'), { recursive: true });
writeFileSync(join(second, 'lib', 'second_root.rs'), 'fn main() {}\n');
conn.sendNotification('workspace/didChangeWorkspaceFolders', {
  event: { added: [{ uri: uri(second), name: 'second' }], removed: [] },
});
out.secondFolder = await conn.sendRequest('find/files', { query: 'second_root' });

// A document with broken path literals.
const guide = join(project, 'docs', 'guide.md');
conn.sendNotification('textDocument/didOpen', {
  textDocument: { uri: uri(guide), languageId: 'markdown', version: 1, text: readFileSync(guide, 'utf8') },
});
await until('diagnostics', () => out.diagnostics.length > 0);
out.links = await conn.sendRequest('textDocument/documentLink', { textDocument: { uri: uri(guide) } });

// Cancellation, on a second server whose index never starts (no
// "initialized"), so the request is still waiting when it is cancelled.
{
  const s2 = start();
  await s2.conn.sendRequest('initialize', { processId: process.pid, rootUri: uri(project), capabilities: {} });
  const cts = new CancellationTokenSource();
  const pending = s2.conn.sendRequest('find/files', { query: 'client' }, cts.token);
  await wait(100);
  cts.cancel();
  try {
    await pending;
    out.cancel = { answered: true };
  } catch (e) {
    out.cancel = { code: e.code, message: e.message };
  }
  await s2.conn.sendRequest('shutdown');
  s2.conn.sendNotification('exit');
  out.cancelServerExit = await s2.exited;
}

await conn.sendRequest('shutdown');
conn.sendNotification('exit');
out.exitCode = await exited;
writeFileSync(outFile, JSON.stringify(out));
process.exit(0);
