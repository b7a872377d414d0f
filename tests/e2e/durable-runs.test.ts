/**
 * Durable runs end to end: the built `pi -p` with `--durable` (or the `durableRuns` setting) against a
 * local OpenAI-compatible server that answers from the request alone — the next two bash calls of a
 * 20-step task, by how many tool results the request carries, then a final answer. Each call appends its
 * id to a file in the project. Seeded calls SIGKILL pi from inside the tool (`kill -9 $PPID`, once each,
 * before or after their line is written), so a crash lands in a tool call whose result is not committed;
 * `pi -p --continue` then carries the run on. Each call ran once, twice only when it was killed after
 * writing its line, never again once its result was committed; the session file stays valid pi JSONL,
 * and pi 1.6.0 itself (when installed) continues it. The same runs on the SQLite store.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../plugins/session/session-sqlite/driver.js";
import { deltaChunk, DONE, usageChunk } from "../fixtures/sse/openai-completions/envelope.js";
import { PI16_CLI, PI16_NODE, pi16Missing } from "../compat/pi16.js";
import { sseFrame, type SseEvent } from "../support/mock-llm-server.js";
import { type AgentHome, agentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

const STEPS = 20;
const KILLS = 30;
const FINAL = `All ${STEPS} steps are done.`;
const completion = { id: "chatcmpl-durable", model: "mock-1", created: 1747831200 };

/** The call ids of answer `step`: two bash calls run together. */
const callIds = (step: number): [string, string] => [`s${step}a`, `s${step}b`];

/**
 * The command of one call. It writes its id to steps.log; a `kill-<id>-before|after` marker (made by the
 * test, removed on use) makes it SIGKILL pi once, before or after writing. The second call of a pair waits
 * until the first one's result is committed to the session (its checkpoint is in the file), so which lines
 * exist when pi dies does not depend on timing. A shell whose pi is gone (killed by its sibling, maybe
 * before this shell even started, so its parent is already someone else) does nothing.
 */
function command(id: string, after?: string): string {
  const piAlive = `grep -qs cli.js /proc/$PPID/cmdline`;
  const kill = (phase: string): string =>
    `if [ -e kill-${id}-${phase} ]; then rm kill-${id}-${phase}; kill -9 $PPID; exit 0; fi`;
  const committed = `grep -rqs '"toolCallId":"${after}"' "$PI_CODING_AGENT_DIR/sessions"`;
  const wait = after === undefined ? "" : `until ${committed}; do ${piAlive} || exit 0; sleep 0.02; done; `;
  return `${piAlive} || exit 0; ${wait}${kill("before")}; printf '%s\\n' ${id} >> steps.log; ${kill("after")}; echo ok ${id}`;
}

/** The answer the model gives to a request that carries `done` tool results. */
function answer(done: number): SseEvent[] {
  if (done >= STEPS * 2)
    return [
      deltaChunk(completion, { role: "assistant", content: "" }),
      deltaChunk(completion, { content: FINAL }),
      deltaChunk(completion, {}, "stop"),
      usageChunk(completion, { prompt_tokens: 10, completion_tokens: 5 }),
      DONE,
    ];
  const step = Math.floor(done / 2);
  const [a, b] = callIds(step);
  const call = (index: number, id: string, cmd: string) => ({
    index,
    id,
    type: "function",
    function: { name: "bash", arguments: JSON.stringify({ command: cmd }) },
  });
  return [
    deltaChunk(completion, { role: "assistant", content: null }),
    deltaChunk(completion, { tool_calls: [call(0, a, command(a))] }),
    deltaChunk(completion, { tool_calls: [call(1, b, command(b, a))] }),
    deltaChunk(completion, {}, "tool_calls"),
    usageChunk(completion, { prompt_tokens: 10, completion_tokens: 5 }),
    DONE,
  ];
}

let server: Server;
let baseUrl: string;
let requests = 0;
/** The last request's body, as the server read it. */
let lastBody: { messages: Array<{ role: string; content?: unknown }> } | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      requests++;
      lastBody = JSON.parse(body) as NonNullable<typeof lastBody>;
      const { messages } = lastBody;
      const done = messages.filter((m) => m.role === "tool").length;
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const event of answer(done)) res.write(sseFrame(event));
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A small seeded generator (mulberry32), so a failing run can be repeated with its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs the built pi; resolves with how it ended (a SIGKILL shows as the signal). */
function launch(args: string[], cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child: ChildProcess = spawn(process.execPath, [PI_BIN, ...args], {
        cwd,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", reject);
      child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    },
  );
}

type Store = "jsonl" | "sqlite";

/** Runs pi 1.6.0 itself in the project. */
function launch16(args: string[], user: AgentHome) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(PI16_NODE, [PI16_CLI, ...args], {
      cwd: user.project,
      env: { ...process.env, ...user.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The one session's header and entries, parsed: every line of the JSONL file (a line that is not JSON
 * fails the test), or the session's rows of the SQLite store's database, read-only.
 */
function sessionLines(user: AgentHome, store: Store): Array<Record<string, any>> {
  if (store === "jsonl") {
    const files = user.sessionFiles();
    expect(files).toHaveLength(1);
    return readFileSync(files[0]!, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, any>);
  }
  const folder = join(user.agent, "sessions", readdirSync(join(user.agent, "sessions"))[0]!);
  // The store's own driver choice: node:sqlite where this Node has it, else better-sqlite3 (built for Node 20).
  const db = openDatabase(join(folder, "sessions.sqlite"));
  try {
    const sessions = db.prepare("SELECT id, timestamp, cwd FROM sessions").all() as Array<Record<string, any>>;
    expect(sessions).toHaveLength(1);
    const rows = db.prepare("SELECT json FROM entries ORDER BY seq").all() as Array<{ json: string }>;
    return [{ type: "session", version: 3, ...sessions[0] }, ...rows.map((r) => JSON.parse(r.json))];
  } finally {
    db.close();
  }
}

/** How each store is chosen and durable runs turned on: the flag for JSONL, the setting for SQLite. */
function prepare(user: AgentHome, store: Store): string[] {
  if (store === "jsonl") return ["--durable"];
  writeFileSync(
    join(user.agent, "plugins.json"),
    JSON.stringify({
      plugins: [
        { id: "session-jsonl", enabled: false },
        { id: "session-sqlite", enabled: true },
      ],
    }),
  );
  writeFileSync(join(user.agent, "settings.json"), JSON.stringify({ durableRuns: true }));
  return [];
}

const lineCounts = (file: string): Map<string, number> => {
  const counts = new Map<string, number>();
  if (!existsSync(file)) return counts;
  for (const id of readFileSync(file, "utf8").split("\n").filter(Boolean)) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
};

describe.skipIf(process.platform !== "linux")("durable runs (built CLI, SIGKILL during tool calls; /proc)", () => {
  const seed = Number(process.env.DURABLE_SEED ?? Date.now() % 1_000_000);

  it.each<Store>(["jsonl", "sqlite"])(
    `acceptance (%s): ${KILLS} seeded kills during tool calls; each committed call ran once, the run finishes (seed printed on failure)`,
    async (store) => {
      const user = agentHome();
      user.useMockServer(baseUrl);
      const durable = prepare(user, store);
      const next = random(seed);
      const ids = Array.from({ length: STEPS }, (_, s) => callIds(s)).flat();
      const shuffled = [...ids];
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      }
      const victims = shuffled.slice(0, KILLS);
      const killedAfter = new Set<string>();
      for (const id of victims) {
        const phase = next() < 0.5 ? "before" : "after";
        if (phase === "after") killedAfter.add(id);
        writeFileSync(join(user.project, `kill-${id}-${phase}`), "");
      }
      const log = join(user.project, "steps.log");
      const model = ["--model", "mock/mock-1", ...durable];
      const context = `${store}, seed ${seed} (repeat with DURABLE_SEED=${seed})`;

      let run = await launch(["-p", ...model, "run the 20 steps"], user.project, user.env);
      let kills = 0;
      while (run.signal === "SIGKILL") {
        kills++;
        expect(kills, context).toBeLessThanOrEqual(KILLS);
        // What was committed when pi died must never run again.
        const committed = new Set(
          sessionLines(user, store).flatMap((e) =>
            e.type === "custom" && e.data?.kind === "tool"
              ? [e.data.toolCallId as string]
              : e.type === "message" && e.message.role === "toolResult"
                ? [e.message.toolCallId as string]
                : [],
          ),
        );
        const before = lineCounts(log);
        run = await launch(["-p", ...model, "--continue", "go on"], user.project, user.env);
        const afterwards = lineCounts(log);
        for (const id of committed) expect(afterwards.get(id), `${context}: ${id} ran again`).toBe(before.get(id));
      }
      expect(kills, context).toBe(KILLS);
      expect(run.stderr, context).toBe("");
      expect(run.code, context).toBe(0);
      expect(run.stdout, context).toBe(`${FINAL}\n`);

      // Each call ran once, or twice when pi died after it wrote its line and before its result was committed.
      const counts = lineCounts(log);
      for (const id of ids) expect(counts.get(id), `${context}: ${id}`).toBe(killedAfter.has(id) ? 2 : 1);

      // The session: one header, every call answered exactly once, the run's checkpoints, a final answer.
      const lines = sessionLines(user, store);
      expect(lines[0]).toMatchObject({ type: "session", version: 3 });
      const results = lines.filter((e) => e.type === "message" && e.message.role === "toolResult");
      expect(results.map((e) => e.message.toolCallId).sort(), context).toEqual([...ids].sort());
      const marks = lines.filter((e) => e.type === "custom" && e.customType === "durable-run").map((e) => e.data);
      expect(
        marks.filter((m) => m.kind === "resume"),
        context,
      ).toHaveLength(KILLS);
      const runIds = new Set(marks.filter((m) => m.kind === "start").map((m) => m.runId));
      // The task's run and the "go on" prompt of the last launch, both ended.
      expect(runIds.size).toBe(2);
      for (const id of runIds) expect(marks.some((m) => m.kind === "end" && m.runId === id)).toBe(true);
      const texts = lines.filter(
        (e) => e.type === "message" && e.message.role === "assistant" && e.message.stopReason === "stop",
      );
      expect(texts.length).toBeGreaterThanOrEqual(1);
      // Every entry but the first hangs off the one before: the file is one unbroken branch.
      for (let i = 2; i < lines.length; i++) expect(lines[i]!.parentId, context).toBe(lines[i - 1]!.id);

      // pi 1.6.0 continues the file: the checkpoints stay out of what it sends, every result goes once.
      if (store !== "jsonl") return;
      if (pi16Missing !== undefined) {
        console.log(`[skip] pi 1.6.0 continuing a durable session: ${pi16Missing}`);
        return;
      }
      const copy = join(user.home, "copy.jsonl");
      copyFileSync(user.sessionFiles()[0]!, copy);
      const pi16 = await launch16(["-p", "--session", copy, "--model", "mock/mock-1", "one more"], user);
      expect(pi16.stderr).toBe("");
      expect(pi16.code).toBe(0);
      expect(pi16.stdout).toBe(`${FINAL}\n`);
      expect(lastBody!.messages.filter((m) => m.role === "tool")).toHaveLength(STEPS * 2);
      expect(JSON.stringify(lastBody)).not.toContain("durable-run");
    },
    600_000,
  );

  it("a run that crashed 5 times in a row is parked: --continue refuses it in one line; --retry-parked runs it", async () => {
    const user = agentHome();
    user.useMockServer(baseUrl);
    // The durableRuns setting instead of the flag.
    writeFileSync(join(user.agent, "settings.json"), JSON.stringify({ durableRuns: true }));
    // Five markers for the first call: it kills pi five times before writing its line.
    const log = join(user.project, "steps.log");
    const markers = (n: number): void => {
      for (let i = 0; i < n; i++) writeFileSync(join(user.project, "kill-s0a-before"), "");
    };
    const model = ["--model", "mock/mock-1"];
    markers(1);
    let run = await launch(["-p", ...model, "run the 20 steps"], user.project, user.env);
    expect(run.signal).toBe("SIGKILL");
    for (let crash = 2; crash <= 5; crash++) {
      markers(1);
      run = await launch(["-p", ...model, "--continue", "go on"], user.project, user.env);
      expect(run.signal, `crash ${crash}`).toBe("SIGKILL");
    }
    expect(existsSync(log)).toBe(false);
    const asked = requests;
    run = await launch(["-p", ...model, "--continue", "go on"], user.project, user.env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'the interrupted run of this session crashed 5 times in a row and is parked; run "pi --continue --retry-parked" to try it again, or start a new session without --continue\n',
    );
    expect(run.stdout).toBe("");
    expect(requests).toBe(asked);
    expect(existsSync(log)).toBe(false);

    run = await launch(["-p", ...model, "--continue", "--retry-parked", "go on"], user.project, user.env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${FINAL}\n`);
    expect(lineCounts(log).get("s0a")).toBe(1);
  }, 300_000);
});

describe.skipIf(!HAS_TMUX)("durable runs in the interactive mode (built CLI in tmux)", () => {
  let tmux: TmuxServer | undefined;
  beforeAll(() => {
    tmux = new TmuxServer();
  });
  afterAll(() => tmux?.close());

  it("pi --durable --continue carries the interrupted run on at start, with no message typed", async () => {
    const user = agentHome();
    user.useMockServer(baseUrl);
    writeFileSync(join(user.project, "kill-s3a-before"), "");
    const model = ["--model", "mock/mock-1", "--durable"];
    const killed = await launch(["-p", ...model, "run the 20 steps"], user.project, user.env);
    expect(killed.signal).toBe("SIGKILL");
    const pane = tmux!.start({
      cwd: user.project,
      env: user.env,
      width: 100,
      height: 30,
      args: [...model, "--continue"],
    });
    await pane.waitFor(FINAL);
    const counts = lineCounts(join(user.project, "steps.log"));
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    expect(counts.size).toBe(STEPS * 2);
    const lines = sessionLines(user, "jsonl");
    const marks = lines.filter((e) => e.type === "custom" && e.customType === "durable-run").map((e) => e.data.kind);
    expect(marks.filter((kind) => kind === "resume")).toHaveLength(1);
    expect(marks.at(-1)).toBe("end");
    pane.kill();
  }, 120_000);
});
