// The extension's own logic, kept apart from the vscode API so that it
// can be tested with plain values: what a path under the cursor is, how
// server answers become QuickPick items, where the server binary is, and
// how settings become the server's initializationOptions.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** One find/files match (API.md). */
export interface FindMatch {
  uri: string;
  path: string;
  score: number;
  matchedIn: string[];
  reason?: string;
}

/** One find/resolvePath candidate. */
export interface Candidate {
  uri: string;
  path: string;
  score: number;
  reasons: string[];
  range?: Range;
}

export interface ResolveResult {
  resolved: Candidate | null;
  candidates: Candidate[];
  exact: boolean;
  /** The path was an old one the repository's history followed to `resolved`. */
  moved?: HistoryNote;
  /** The repository's history deleted the file the path names. */
  gone?: HistoryNote;
  /** Answered before the repository's history was read: nothing is
   * resolved, and asking again once it is may find the file. */
  historyPending?: boolean;
}

/** What is said of a path nothing resolved: that nothing matches it,
 * or the candidates' heading; while the repository's history is being
 * read, that asking again in a moment may find it. */
export function unresolvedMessage(text: string, res: ResolveResult): string {
  const said = res.candidates.length === 0 ? `nothing in the workspace matches ${text}` : `no file is clearly ${text}; candidates`;
  return res.historyPending ? `${said} (the repository's history is still being read: ask again in a moment)` : said;
}

/** What the repository's history says of an old path. */
export interface HistoryNote {
  path: string;
  commit: string;
  date: string;
  subject: string;
  lastPath?: string;
}

/** One line for what the history did to an old path:
 * `loader.c was deleted in 3f2a1c9 (2024-05-01) "remove legacy loader"`. */
export function historyMessage(what: "moved" | "deleted", n: HistoryNote, to?: string): string {
  const where = what === "moved" && to ? ` to ${to}` : "";
  return `${n.path} was ${what}${where} in ${n.commit.slice(0, 7)} (${n.date}) "${n.subject}"`;
}

/** One find/locate result. */
export interface LocateHit {
  uri: string;
  path: string;
  range?: Range;
  score: number;
  via: string;
  reason: string;
}

export interface LocateResult {
  term: string;
  impl: boolean;
  strategies: string[];
  results: LocateHit[];
  confidence: number;
}

export interface Status {
  ready: boolean;
  files: number;
  symbols: number;
  symbolsReady?: boolean;
}

/** What a QuickPick shows for an answer, and where choosing it goes. */
export interface PickItem {
  label: string;
  description: string;
  detail: string;
  uri: string;
  range?: Range;
}

// Characters a path may contain, as written in code, prose and logs;
// quotes, brackets, commas and whitespace end it.
const pathChar = /[A-Za-z0-9_\-.~/\\@+$%=:#\u0080-\uffff]/;

/**
 * pathUnderCursor returns the path-like word around the cursor in a line
 * of text ("src/a.go:12:3" included, for the server to read the line),
 * or undefined when the cursor is not on one. Trailing sentence
 * punctuation and a ":" with nothing after it are dropped; "(12,5)"
 * suffixes are kept.
 */
export function pathUnderCursor(line: string, character: number): string | undefined {
  if (character > line.length) {
    character = line.length;
  }
  let start = character;
  while (start > 0 && pathChar.test(line[start - 1])) {
    start--;
  }
  let end = character;
  while (end < line.length && pathChar.test(line[end])) {
    end++;
  }
  // "(12,5)" right after the path is a location suffix.
  const paren = /^\(\d+,\s*\d+\)/.exec(line.slice(end));
  let word = line.slice(start, end);
  word = word.replace(/[.:,;]+$/, "");
  word = word.replace(/^[:#]+/, "");
  if (paren && word.length > 0) {
    word += paren[0];
  }
  if (word === "" || !/[A-Za-z0-9]/.test(word)) {
    return undefined;
  }
  // A bare word with no separator or extension is not a path.
  if (!/[/\\]/.test(word) && !/\.[A-Za-z0-9]+/.test(word)) {
    return undefined;
  }
  return word;
}

function splitPath(p: string): { base: string; dir: string } {
  const i = p.lastIndexOf("/");
  return i < 0 ? { base: p, dir: "" } : { base: p.slice(i + 1), dir: p.slice(0, i) };
}

const score = (s: number): string => s.toFixed(2);

/** Items for find/files matches: the name, its directory, and why. */
export function matchItems(matches: FindMatch[]): PickItem[] {
  return matches.map((m) => {
    const { base, dir } = splitPath(m.path);
    const why = [m.matchedIn.join(", "), m.reason].filter((x) => x).join(" · ");
    return { label: base, description: dir, detail: `${score(m.score)} · ${why}`, uri: m.uri };
  });
}

/** Items for resolvePath candidates when none is confident. */
export function candidateItems(cands: Candidate[]): PickItem[] {
  return cands.map((c) => {
    const { base, dir } = splitPath(c.path);
    return { label: base, description: dir, detail: `${score(c.score)} · ${c.reasons.join(", ")}`, uri: c.uri, range: c.range };
  });
}

/** Items for locate results: the file, how it was found, and the evidence. */
export function locateItems(hits: LocateHit[]): PickItem[] {
  return hits.map((h) => {
    const line = h.range ? `:${h.range.start.line + 1}` : "";
    return { label: `${h.path}${line}`, description: `${h.via} · ${score(h.score)}`, detail: h.reason, uri: h.uri, range: h.range };
  });
}

/** The status bar's words. */
export function statusText(st: Status): string {
  if (!st.ready) {
    return "wayfind: indexing…";
  }
  const symbols = st.symbolsReady === false ? "symbols indexing" : `${st.symbols.toLocaleString("en")} symbols`;
  return `wayfind: ${st.files.toLocaleString("en")} files · ${symbols}`;
}

/**
 * serverCandidates lists where the server may be, in the order tried:
 * the wayfind.serverPath setting, bin/wayfind inside the extension, then
 * every directory of PATH.
 */
export function serverCandidates(setting: string, extensionPath: string, pathEnv: string, platform: string): string[] {
  const exe = platform === "win32" ? "wayfind.exe" : "wayfind";
  const sep = platform === "win32" ? ";" : ":";
  const join = (a: string, b: string) => (a.endsWith("/") || a.endsWith("\\") ? a + b : `${a}/${b}`);
  const out: string[] = [];
  if (setting.trim() !== "") {
    out.push(setting.trim());
  }
  out.push(join(join(extensionPath, "bin"), exe));
  for (const dir of pathEnv.split(sep)) {
    if (dir !== "") {
      out.push(join(dir, exe));
    }
  }
  return out;
}

/**
 * discoverServer returns the first candidate that exists. A setting that
 * names a missing file is not skipped silently: it is returned with
 * missing=true so that the user hears about it.
 */
export function discoverServer(
  setting: string,
  candidates: string[],
  exists: (p: string) => boolean,
): { path?: string; missingSetting?: string } {
  if (setting.trim() !== "" && !exists(candidates[0])) {
    return { missingSetting: candidates[0] };
  }
  const found = candidates.find((c) => exists(c));
  return found ? { path: found } : {};
}

/** Reads settings; matches vscode's WorkspaceConfiguration.get. */
export interface Settings {
  get<T>(key: string, defaultValue: T): T;
}

/** The server's initializationOptions (API.md) from the wayfind.* settings. */
export function initializationOptions(s: Settings): Record<string, unknown> {
  const opts: Record<string, unknown> = {
    includeDirs: s.get<string[]>("includeDirs", []),
    excludeGlobs: s.get<string[]>("excludeGlobs", []),
    history: { size: s.get<number>("history.size", 10000) },
    diagnostics: s.get<boolean>("diagnostics", true),
  };
  const dir = s.get<string>("model.dir", "");
  if (dir !== "") {
    opts.model = { dir, precision: s.get<string>("model.precision", "int8") };
  }
  return opts;
}

/** debounce delays fn until calls stop for ms; a newer call replaces the pending one. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    if (timer !== undefined) {
      clearTimeout(timer);
    }
    timer = setTimeout(() => fn(...args), ms);
  };
}

/**
 * visitReporter turns active-editor changes into find/visited
 * notifications: debounced (flicking through tabs reports only the file
 * the user stops at), only file: URIs inside the workspace, and not the
 * same file twice in a row (a focus regained is no new visit).
 */
export function visitReporter(
  send: (uri: string) => void,
  inWorkspace: (uri: string) => boolean,
  ms: number,
): (uri: string | undefined) => void {
  let last: string | undefined;
  const report = debounce((uri: string | undefined) => {
    if (uri === undefined || uri === last || !uri.startsWith("file:") || !inWorkspace(uri)) {
      return;
    }
    last = uri;
    send(uri);
  }, ms);
  return report;
}

/**
 * serverLog splits the server's stderr, which arrives in chunks, into
 * lines for the output channel. The one JSON line the server writes per
 * request (API.md: method, elapsedMs, results…) is for operators: it is
 * left out, or, when showRequests is on, shown as a sentence
 * ("find/files 3.2 ms, 12 results"). The returned function takes a chunk
 * and returns the lines to show; a partial last line waits for its end.
 */
export function serverLog(showRequests: () => boolean): (chunk: string) => string[] {
  let rest = "";
  return (chunk: string) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop() ?? "";
    const out: string[] = [];
    for (const line of parts) {
      const metric = requestMetric(line);
      if (metric === undefined) {
        if (line.trim() !== "") {
          out.push(line);
        }
      } else if (showRequests()) {
        out.push(metric);
      }
    }
    return out;
  };
}

/** A request's JSON metric line as a sentence, or undefined for any other line. */
export function requestMetric(line: string): string | undefined {
  if (!line.startsWith("{")) {
    return undefined;
  }
  let m: { method?: unknown; elapsedMs?: unknown; results?: unknown; rerankMs?: unknown; error?: unknown };
  try {
    m = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof m.method !== "string" || typeof m.elapsedMs !== "number") {
    return undefined;
  }
  let s = `${m.method} ${m.elapsedMs.toFixed(1)} ms`;
  if (typeof m.results === "number" && m.results >= 0) {
    s += `, ${m.results} result${m.results === 1 ? "" : "s"}`;
  }
  if (typeof m.rerankMs === "number") {
    s += `, model ${m.rerankMs.toFixed(1)} ms`;
  }
  if (typeof m.error === "string" && m.error !== "") {
    s += `: ${m.error}`;
  }
  return s;
}

/** Why there is no server, in words a user can act on. */
export type ServerProblem =
  | { kind: "missing-setting"; path: string }
  | { kind: "not-found"; tried: string[] }
  | { kind: "failed"; path: string; error: string }
  | { kind: "stopped"; path: string; restarts: number };

const BUILD_HINT = "build it with `make build` in the wayfind repository (bin/wayfind), or put wayfind on PATH";

/** The one message shown for a problem, naming what was tried and what to do. */
export function problemMessage(p: ServerProblem): string {
  switch (p.kind) {
    case "missing-setting":
      return `wayfind: the server was not started: wayfind.serverPath names ${p.path}, which does not exist. Set wayfind.serverPath to the wayfind binary (${BUILD_HINT}), then Retry.`;
    case "not-found":
      return `wayfind: the server was not found (tried ${p.tried.join(", ")}). Set wayfind.serverPath to the wayfind binary (${BUILD_HINT}), then Retry.`;
    case "failed":
      return `wayfind: the server ${p.path} did not start: ${p.error}. Check that wayfind.serverPath names a working wayfind binary (\`${p.path} --version\` in a terminal; ${BUILD_HINT}), then Retry.`;
    case "stopped":
      return `wayfind: the server ${p.path} stopped ${p.restarts + 1} times in a few minutes and was not restarted again. Its log is in the wayfind output. Retry to start it.`;
  }
}

/**
 * restartPolicy decides, each time the server's connection closes while
 * it was running, whether to start it again: up to max restarts within
 * windowMs; a server that keeps dying is left stopped (and the user told)
 * rather than restarted forever. It returns the restart's number (1…max)
 * or 0 when it should stay stopped.
 */
export function restartPolicy(max: number, windowMs: number, now: () => number = Date.now): () => number {
  let times: number[] = [];
  return () => {
    const t = now();
    times = times.filter((x) => t - x < windowMs);
    if (times.length >= max) {
      return 0;
    }
    times.push(t);
    return times.length;
  };
}

/**
 * versionProblem reads what `SERVER --version` did: undefined when it is
 * a wayfind server, else why not, in words for problemMessage. A binary
 * that exits at once (a build for another machine, a wrong file) is told
 * here, before the language client would report a broken pipe.
 */
export function versionProblem(error: { code?: number | string | null; message?: string } | null, stdout: string, stderr: string): string | undefined {
  const said = (stdout.trim() || stderr.trim()).split("\n")[0];
  if (error) {
    const how = typeof error.code === "number" ? `exited with code ${error.code}` : (error.message ?? String(error.code));
    return `\`--version\` ${how}${said ? ` ("${said}")` : ""}`;
  }
  if (!/^wayfind\b/.test(stdout.trim())) {
    return `it is not a wayfind binary (\`--version\` said "${said}")`;
  }
  return undefined;
}
