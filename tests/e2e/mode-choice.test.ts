/**
 * Mode choice as pi makes it: rpc > json > print (-p, or stdin/stdout not a terminal) > interactive.
 * `script` gives the child a real terminal, so the interactive branch and "stdout is a file" can be seen.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { PI_BIN } from "./run-pi.js";
import { agentHome, type AgentHome } from "./agent-home.js";

/** Runs a shell command line under a pseudo-terminal (util-linux `script`); returns its output and exit code. */
function inTerminal(user: AgentHome, commandLine: string): { code: number | null; output: string } {
  const result = spawnSync("script", ["-qec", commandLine, "/dev/null"], {
    cwd: user.project,
    env: { ...process.env, ...user.env },
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: result.status, output: (result.stdout + result.stderr).replace(/\r/g, "") };
}

const pi = `"${process.execPath}" "${PI_BIN}"`;

let user: AgentHome;
beforeEach(() => {
  user = agentHome();
  user.scriptFaux([{ content: "answered" }]);
});

describe("mode choice (built CLI in a terminal)", () => {
  it("a terminal with no mode flag is interactive, which needs a mode plugin named interactive: without one, one line, exit 2", () => {
    // A whole distribution of its own, so no interactive mode is in it whatever the default holds.
    const bare = join(user.project, "no-tui.json");
    writeFileSync(
      bare,
      JSON.stringify({
        extends: "none",
        plugins: [
          "models",
          "auth",
          "provider-faux",
          "llm",
          "session-jsonl",
          "agent-loop",
          "agent-session",
          "mode-print",
        ].map((id) => ({ id, use: id })),
      }),
    );
    const run = inTerminal(user, `${pi} --distribution "${bare}" hello`);
    expect(run.code).toBe(2);
    expect(run.output).toBe('pi: no plugin provides the "interactive" mode; enable one in plugins.json, or use -p\n');
  });

  it("with a mode plugin named interactive, a terminal runs it with the messages and @files", () => {
    const fixture = fileURLToPath(new URL("./fixtures/echo-interactive.ts", import.meta.url));
    writeFileSync(join(user.project, "notes.txt"), "n");
    const run = inTerminal(user, `${pi} --plugin "mode-interactive=${fixture}" @notes.txt "first" "second"`);
    expect(run.code).toBe(0);
    expect(run.output).toBe(
      `interactive: ${JSON.stringify([`<file name="${join(user.project, "notes.txt")}">\nn\n</file>\nfirst`, "second"])} images: 0\n`,
    );
  });

  it("-p in a terminal prints the answer", () => {
    const run = inTerminal(user, `${pi} -p --model faux/faux-1 hello`);
    expect(run.code).toBe(0);
    expect(run.output).toBe("answered\n");
  });

  it("--mode text is print mode", () => {
    const run = inTerminal(user, `${pi} --mode text --model faux/faux-1 hello`);
    expect(run.code).toBe(0);
    expect(run.output).toBe("answered\n");
  });

  it("stdout redirected to a file means print mode even with a terminal on stdin", () => {
    const out = join(user.project, "answer.txt");
    const run = inTerminal(user, `${pi} --model faux/faux-1 hello > "${out}"`);
    expect(run.code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe("answered\n");
  });

  it("--mode json wins over -p", () => {
    const run = inTerminal(user, `${pi} -p --mode json --model faux/faux-1 hello`);
    expect(run.code).toBe(0);
    const lines = run.output
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0].type).toBe("session");
    expect(lines.slice(-2).map((l) => l.type)).toEqual(["agent_end", "agent_settled"]);
  });
});
