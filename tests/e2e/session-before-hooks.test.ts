/**
 * pi extensions' `session_before_switch`, `session_before_fork`, `session_before_tree` and
 * `session_before_compact` fire with pi's payloads for operations a user types (`/new`, `/compact`,
 * `/tree` in the TUI, in tmux) and a client sends (RPC `new_session`, `switch_session`, `fork`,
 * `compact`), and `{ cancel: true }` stops them as in pi; a supplied compaction is saved instead.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentHome, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.warn("[skip] tmux is not on PATH: skipping the typed /new, /compact, /tree test");

const EXTENSION = `
import { appendFileSync, existsSync } from "node:fs";
const LOG = process.env.GATE_LOG;
export default function (pi) {
  const log = (line) => appendFileSync(LOG, line + "\\n");
  const cancel = (name) => existsSync(LOG + "." + name);
  pi.on("session_before_switch", (e) => { log("switch " + e.reason + (e.targetSessionFile ? " " + e.targetSessionFile : "")); if (cancel("switch")) return { cancel: true }; });
  pi.on("session_before_fork", (e) => { log("fork " + e.entryId + " " + e.position); if (cancel("fork")) return { cancel: true }; });
  pi.on("session_before_tree", (e) => { log("tree " + e.preparation.targetId + " " + e.preparation.userWantsSummary); if (cancel("tree")) return { cancel: true }; });
  pi.on("session_before_compact", (e) => {
    log("compact " + e.reason + " " + (e.customInstructions ?? "-") + " " + Array.isArray(e.branchEntries));
    if (cancel("compact")) return { cancel: true };
    if (e.customInstructions === "mine") return { compaction: { summary: "from the extension", firstKeptEntryId: e.preparation.firstKeptEntryId, tokensBefore: 5 } };
  });
}`;

let user: AgentHome;
let log: string;
let tmux: TmuxServer | undefined;

beforeEach(() => {
  user = agentHome();
  log = join(user.home, "gate.log");
  mkdirSync(join(user.agent, "extensions"), { recursive: true });
  writeFileSync(join(user.agent, "extensions", "gate.ts"), EXTENSION);
  user.scriptFaux([{ content: "first answer" }, { content: "second answer" }, { content: "third answer" }]);
});
afterEach(() => tmux?.killPanes());
afterAll(() => tmux?.close());

const logLines = (): string[] => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []);
const cancelling = (name: string, on: boolean): void => {
  if (on) writeFileSync(`${log}.${name}`, "");
  else rmSync(`${log}.${name}`, { force: true });
};

/** A running `pi --mode rpc`: send a command, get its response. */
function rpc(): { send(command: Record<string, unknown>): Promise<any>; close(): void } {
  const child = spawn(process.execPath, [PI_BIN, "--mode", "rpc", "--model", "faux/faux-1"], {
    cwd: user.project,
    env: { ...process.env, ...user.env, GATE_LOG: log },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let buffer = "";
  const waiting = new Map<string, (record: any) => void>();
  const settled: Array<() => void> = [];
  child.stdout.on("data", (d: Buffer) => {
    buffer += d.toString();
    let cut = buffer.indexOf("\n");
    while (cut >= 0) {
      const record = JSON.parse(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 1);
      if (record.type === "response" && waiting.has(record.id)) waiting.get(record.id)!(record);
      if (record.type === "agent_settled") settled.shift()?.();
      cut = buffer.indexOf("\n");
    }
  });
  let next = 0;
  return {
    send(command) {
      const id = `c${next++}`;
      const done =
        command.type === "prompt" ? new Promise<void>((resolve) => settled.push(resolve)) : Promise.resolve();
      const answer = new Promise((resolve) => waiting.set(id, resolve));
      child.stdin.write(`${JSON.stringify({ id, ...command })}\n`);
      return Promise.all([answer, done]).then(([a]) => a);
    },
    close: () => child.stdin.end(),
  };
}

describe("session_before_* for operations typed or sent (built CLI)", () => {
  it("RPC new_session, switch_session, fork and compact ask the extension; cancel stops each", {
    timeout: 60_000,
  }, async () => {
    const client = rpc();
    try {
      await client.send({ type: "prompt", message: "hello" });
      const state = (await client.send({ type: "get_state" })).data;
      const file = state.sessionFile as string;

      cancelling("switch", true);
      expect((await client.send({ type: "new_session" })).data).toEqual({ cancelled: true });
      expect((await client.send({ type: "switch_session", sessionPath: file })).data).toEqual({ cancelled: true });
      expect((await client.send({ type: "get_state" })).data.sessionFile).toBe(file);

      const entries = (await client.send({ type: "get_entries" })).data.entries as any[];
      const userEntry = entries.find((e) => e.type === "message" && e.message.role === "user");
      cancelling("fork", true);
      expect((await client.send({ type: "fork", entryId: userEntry.id })).data).toEqual({ text: "", cancelled: true });

      cancelling("compact", true);
      const refused = await client.send({ type: "compact" });
      expect([refused.success, refused.error]).toEqual([false, "Compaction cancelled"]);
      cancelling("compact", false);
      const supplied = await client.send({ type: "compact", customInstructions: "mine" });
      expect(supplied.success).toBe(true);
      expect(supplied.data.summary).toBe("from the extension");
      const after = (await client.send({ type: "get_entries" })).data.entries as any[];
      expect(after.at(-1)).toMatchObject({ type: "compaction", summary: "from the extension", fromHook: true });

      cancelling("switch", false);
      expect((await client.send({ type: "new_session" })).data).toEqual({ cancelled: false });
      expect((await client.send({ type: "get_state" })).data.sessionFile).not.toBe(file);
      expect(logLines()).toEqual([
        "switch new",
        `switch resume ${file}`,
        `fork ${userEntry.id} before`,
        "compact manual - true",
        "compact manual mine true",
        "switch new",
      ]);
    } finally {
      client.close();
    }
  });

  it.skipIf(!HAS_TMUX)(
    "typed /new, /compact and /tree in the TUI ask the extension and stop when it cancels",
    { timeout: 60_000 },
    async () => {
      tmux ??= new TmuxServer();
      const pane = tmux.start({
        cwd: user.project,
        env: { ...user.env, GATE_LOG: log },
        args: ["--model", "faux/faux-1"],
        width: 100,
        height: 30,
      });
      await pane.waitFor("faux-1");
      pane.type("hello");
      pane.keys("Enter");
      await pane.waitFor("first answer");
      for (const name of ["switch", "compact", "tree"]) cancelling(name, true);

      pane.type("/new");
      pane.keys("Enter");
      await waitForLog("switch new");
      // Still the same session: the answer stays on screen.
      expect(pane.capture()).toContain("first answer");

      pane.type("/compact keep it short");
      pane.keys("Enter");
      await pane.waitFor("Compaction cancelled");
      expect(logLines()).toContain("compact manual keep it short true");

      pane.type("/tree");
      pane.keys("Enter");
      await pane.waitFor("user: hello");
      // Off the current point (the leaf is a no-op, as in pi), then pi's "No summary".
      pane.keys("Up");
      pane.keys("Enter");
      await pane.waitFor("Summarize branch?");
      pane.keys("Enter");
      await waitForLog(/^tree \S+ false$/);
    },
  );
});

async function waitForLog(line: string | RegExp): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!logLines().some((l) => (typeof line === "string" ? l === line : line.test(l)))) {
    if (Date.now() > deadline)
      throw new Error(`the extension never logged ${String(line)}; it logged ${logLines().join(" | ")}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
