// wayfind's opencode plugin: each tool call, before it runs and (a shell
// command) after, is handed to `wayfind hook --harness opencode` as the
// event it is — the tool's id and its args — and what the hook answers is
// applied as opencode's plugins can: args merged over the call's, a
// denial thrown (the model reads it as the tool's error), a line added to
// the tool's output. The hook steps aside on its own failures (exit 0, no
// answer); so does this plugin on its own — no wayfind to run, no answer
// in time, an answer it cannot read: the call goes ahead as without it.
//
// Install: copy or link this file into ~/.config/opencode/plugin/ (or a
// project's .opencode/plugin/), or name it in opencode.json's "plugin".
// It runs $WAYFIND_BIN, else the wayfind PATH finds, else ../bin/wayfind
// beside it (make plugin).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

// The hook's own budget is eight tenths of this (hook.Timeout).
const timeoutMs = 10000;

function wayfind() {
  if (process.env.WAYFIND_BIN) return process.env.WAYFIND_BIN;
  for (const dir of (process.env.PATH || "").split(delimiter)) {
    if (dir && existsSync(join(dir, "wayfind"))) return join(dir, "wayfind");
  }
  const beside = fileURLToPath(new URL("../bin/wayfind", import.meta.url));
  return existsSync(beside) ? beside : null;
}

function ask(event, directory) {
  const bin = wayfind();
  if (!bin) return Promise.resolve(null);
  return new Promise((resolve) => {
    let out = "";
    let done = false;
    const finish = (v) => {
      if (!done) {
        done = true;
        resolve(v);
      }
    };
    let child;
    try {
      child = spawn(bin, ["hook", "--harness", "opencode"], { cwd: directory, stdio: ["pipe", "pipe", "ignore"] });
    } catch {
      return finish(null);
    }
    const timer = setTimeout(() => {
      child.kill();
      finish(null);
    }, timeoutMs);
    child.on("error", () => {
      clearTimeout(timer);
      finish(null);
    });
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("close", () => {
      clearTimeout(timer);
      try {
        finish(out.trim() ? JSON.parse(out) : null);
      } catch {
        finish(null);
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(event));
  });
}

export const WayfindPlugin = async ({ directory }) => {
  const lines = new Map(); // a call's line for the model, said after it
  // A shell call's command as it ran: the event after it carries no args,
  // and the hook reads the command's words to name what a failed one meant.
  const commands = new Map();
  return {
    "tool.execute.before": async (input, output) => {
      const answer = await ask(
        { session_id: input.sessionID, cwd: directory, hook_event_name: "tool.execute.before", tool_name: input.tool, tool_input: output.args },
        directory,
      );
      if (answer && answer.deny) throw new Error(answer.deny);
      if (answer && answer.args) Object.assign(output.args, answer.args);
      if (answer && answer.context) lines.set(input.callID, answer.context);
      if (input.tool === "bash" && output.args && typeof output.args.command === "string") commands.set(input.callID, output.args.command);
    },
    "tool.execute.after": async (input, output) => {
      let line = lines.get(input.callID);
      const command = commands.get(input.callID);
      lines.delete(input.callID);
      commands.delete(input.callID);
      if (input.tool === "bash" && typeof output.output === "string") {
        const answer = await ask(
          { session_id: input.sessionID, cwd: directory, hook_event_name: "tool.execute.after", tool_name: "bash", tool_input: command === undefined ? {} : { command }, tool_response: { output: output.output } },
          directory,
        );
        if (answer && answer.context) line = line ? line + "\n" + answer.context : answer.context;
      }
      if (line && typeof output.output === "string") output.output += "\n\n" + line;
    },
  };
};
