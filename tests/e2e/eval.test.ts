/**
 * `pi eval` end to end: the built pi runs a 3-task suite against a local OpenAI-compatible server
 * (models.json provider "mock" on 127.0.0.1) whose answers depend on what each request carries — the
 * task's prompt, and whether the doc set is in the system prompt — so the docs variant passes where the
 * plain one fails because the documentation reached the model. Also: a broken suite stops with one line
 * and exit 2 before any agent runs, and a run that outlives --timeout is an error (faux provider).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer, type RecordedRequest, type ScriptedResponse } from "../support/mock-llm-server.js";
import { agentHome, completionsText, completionsToolCall, type AgentHome } from "./agent-home.js";
import { runPiRecordingModules } from "./record-modules.js";
import { PI_BIN } from "./run-pi.js";

/** The doc set's one fact; only a model that was shown the docs can answer with it. */
const DOC_FACT = "The billing service listens on port 4711.";

/** Text of an OpenAI chat message's content (a string or text parts). */
function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part: any) => part?.text ?? "").join("");
  return "";
}

/** The mock model: answers by the task's prompt, and from the docs only when the system prompt has them. */
function model(request: RecordedRequest): ScriptedResponse {
  const messages: any[] = request.body?.messages ?? [];
  const system = text(messages.find((m) => m.role === "system" || m.role === "developer")?.content);
  const prompt = text(messages.find((m) => m.role === "user")?.content);
  if (prompt.includes("greeting.txt") && messages.at(-1)?.role === "tool") return { sse: completionsText("done") };
  if (prompt.includes("greeting.txt"))
    return {
      sse: completionsToolCall("call_write_greeting_0001", "write", { path: "greeting.txt", content: "hello\n" }),
    };
  if (prompt.includes("port")) {
    // The docs in the system prompt (--docs-as context), or read through the skill (--docs-as skill).
    const seen = text(messages.at(-1)?.content);
    if (system.includes(DOC_FACT) || seen.includes(DOC_FACT))
      return { sse: completionsText("It listens on port 4711.") };
    const skill = /<location>([^<]*\/project-docs\/SKILL\.md)<\/location>/.exec(system)?.[1];
    if (skill !== undefined && messages.at(-1)?.role !== "tool")
      return { sse: completionsToolCall("call_read_skill_000001", "read", { path: skill }) };
    if (skill !== undefined && seen.includes("docs/services.md"))
      return {
        sse: completionsToolCall("call_read_docs_0000001", "read", {
          path: join(skill, "..", "docs", "services.md"),
        }),
      };
    return { sse: completionsText("I cannot tell which port it uses.") };
  }
  return { sse: completionsText("I did not change anything.") };
}

let server: MockLlmServer;
let user: AgentHome;

beforeAll(async () => {
  server = await new MockLlmServer().start();
  server.answerWith(model);
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  user = agentHome();
  user.useMockServer(`${server.url}/v1`);
});

/** Writes `files` (path → text or JSON value) under `root`. */
function writeTree(root: string, files: Record<string, unknown>): void {
  for (const [path, value] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  }
}

/** The three tasks: one passes, one's check fails, one passes only with the docs. */
function writeSuite(): { suite: string; docs: string } {
  const suite = join(user.home, "suite");
  const docs = join(user.home, "docs");
  writeTree(suite, {
    "a-greeting/task.json": {
      prompt: "Create greeting.txt containing hello.",
      checks: [
        { file: "greeting.txt", contains: "hello" },
        { file: "package.json" },
        { command: "grep -q hello greeting.txt", exitCode: 0 },
        { answer: { matches: "^done$" } },
        { name: "judged by a script the agent never sees", command: 'sh "$PI_EVAL_TASK_DIR/judge.sh"' },
      ],
    },
    "a-greeting/judge.sh": 'grep -q hello greeting.txt && [ "$PI_EVAL_ANSWER" = done ]\n',
    "a-greeting/fixture/package.json": '{ "name": "fixture" }\n',
    "b-config.json": {
      prompt: "Create config.json with the default settings.",
      checks: [{ name: "config written", file: "config.json", contains: "{" }, { answer: { contains: "change" } }],
    },
    "c-port/task.json": {
      prompt: "Which port does the billing service use? Answer with the number.",
      fixture: "repo",
      checks: [{ file: "service.js" }, { answer: { matches: "\\b4711\\b" } }],
    },
    "c-port/repo/service.js": "export const name = 'billing';\n",
  });
  writeTree(docs, { "services.md": `# Services\n\n${DOC_FACT}\n` });
  return { suite, docs };
}

describe("pi eval", () => {
  it("runs each task without and with the docs, prints the table, writes the report, exits 1 on a failed check", async () => {
    const { suite, docs } = writeSuite();
    const report = join(user.home, "report.json");
    const run = await user.pi(["eval", suite, "--model", "mock/mock-1", "--docs", docs, "--json", report]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^task\s+variant\s+run\s+result\s+checks\s+turns\s+tokens\s+cost\s+time$/);
    const row = (task: string, variant: string): string[] =>
      lines.find((l) => new RegExp(`^${task}\\s+${variant}\\s`).test(l))?.split(/\s+/) ?? [];
    // task variant run result checks turns tokens cost time
    expect(row("a-greeting", "no-docs").slice(0, 6)).toEqual(["a-greeting", "no-docs", "1", "PASS", "5/5", "2"]);
    expect(row("a-greeting", "docs").slice(0, 6)).toEqual(["a-greeting", "docs", "1", "PASS", "5/5", "2"]);
    expect(row("b-config", "no-docs").slice(0, 6)).toEqual(["b-config", "no-docs", "1", "FAIL", "1/2", "1"]);
    expect(row("b-config", "docs").slice(0, 5)).toEqual(["b-config", "docs", "1", "FAIL", "1/2"]);
    expect(row("c-port", "no-docs").slice(0, 5)).toEqual(["c-port", "no-docs", "1", "FAIL", "1/2"]);
    expect(row("c-port", "docs").slice(0, 5)).toEqual(["c-port", "docs", "1", "PASS", "2/2"]);
    // The mock's usage chunk reports 132 tokens per response.
    expect(row("a-greeting", "no-docs")[6]).toBe("264");
    expect(run.stdout).toContain("b-config (no-docs, run 1): config written: config.json does not exist");
    expect(run.stdout).toMatch(/c-port \(no-docs, run 1\): answer matches .*: the answer does not match/);
    expect(run.stdout).toMatch(/^no-docs: 1\/3 passed \(2 failed\); 528 tokens, \$0\.0000, \d+\.\ds$/m);
    expect(run.stdout).toMatch(/^docs: 2\/3 passed \(1 failed\); 528 tokens, \$0\.0000, \d+\.\ds$/m);
    expect(run.stdout).toContain("with docs vs without: the docs helped (+1)");
    expect(run.stdout).not.toMatch(/error/i);

    const saved = JSON.parse(readFileSync(report, "utf8"));
    expect(saved).toMatchObject({
      version: 1,
      suite,
      model: "mock/mock-1",
      docs: { folder: docs, files: ["services.md"] },
      summary: {
        "no-docs": { runs: 3, passed: 1, failed: 2, errors: 0, tokens: 4 * 132, cost: 0 },
        docs: { runs: 3, passed: 2, failed: 1, errors: 0, tokens: 4 * 132, cost: 0 },
      },
    });
    expect(saved.results.map((r: any) => `${r.task}/${r.variant}:${r.status}`)).toEqual([
      "a-greeting/no-docs:pass",
      "a-greeting/docs:pass",
      "b-config/no-docs:fail",
      "b-config/docs:fail",
      "c-port/no-docs:fail",
      "c-port/docs:pass",
    ]);
    expect(saved.results[0]).toMatchObject({
      turns: 2,
      tokens: 264,
      answer: "done",
      exitCode: 0,
      model: "mock/mock-1",
    });
    expect(saved.results[2].checks[0]).toEqual({
      label: "config written",
      passed: false,
      detail: "config.json does not exist",
    });

    // Six runs, each in its own folder: the docs reached only the docs variant's requests.
    const firsts = server.requests.filter((r) => r.body.messages.at(-1).role === "user");
    expect(firsts).toHaveLength(6);
    const withDocs = firsts.filter((r) => JSON.stringify(r.body.messages[0]).includes(DOC_FACT));
    expect(withDocs).toHaveLength(3);
    // The fixture was copied, never changed, and no run saved a session in the user's agent folder.
    expect(existsSync(join(suite, "a-greeting", "fixture", "greeting.txt"))).toBe(false);
    expect(user.sessionFiles()).toEqual([]);
  });

  it("--docs-as skill gives the doc set as a skill the agent reads when it chooses to", async () => {
    const { suite, docs } = writeSuite();
    const report = join(user.home, "report.json");
    const run = await user.pi([
      "eval",
      suite,
      "--model",
      "mock/mock-1",
      "--docs",
      docs,
      "--docs-as",
      "skill",
      "--json",
      report,
    ]);
    expect(run.code).toBe(1);
    const saved = JSON.parse(readFileSync(report, "utf8"));
    expect(saved.docs).toEqual({ folder: docs, files: ["services.md"], as: "skill" });
    const port = saved.results.filter((r: any) => r.task === "c-port");
    // Without docs: one turn, no answer. With the skill: read SKILL.md, read docs/services.md, answer.
    expect(port.map((r: any) => [r.variant, r.status, r.turns, r.answer])).toEqual([
      ["no-docs", "fail", 1, "I cannot tell which port it uses."],
      ["docs", "pass", 3, "It listens on port 4711."],
    ]);
    // The fact reached the model only through the read tool, never in a system prompt.
    expect(server.requests.some((r) => JSON.stringify(r.body.messages[0]).includes(DOC_FACT))).toBe(false);
    expect(run.stdout).toContain("with docs vs without: the docs helped (+1)");
  });

  it("a broken suite is one line naming the file and field, exit 2, and no agent runs", async () => {
    const suite = join(user.home, "broken");
    writeTree(suite, {
      "good/task.json": { prompt: "Create greeting.txt containing hello.", checks: [{ file: "greeting.txt" }] },
      "missing-prompt/task.json": { checks: [{ file: "x.ts", contains: "y" }] },
    });
    const run = await user.pi(["eval", suite, "--model", "mock/mock-1"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `pi eval: ${join(suite, "missing-prompt", "task.json")}: prompt: missing; give the task's prompt as a string\n`,
    );
    writeTree(suite, { "missing-prompt/task.json": "{ not json" });
    const bad = await user.pi(["eval", suite]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^pi eval: .*missing-prompt\/task\.json: not valid JSON \(.*\)\n$/);
    // A mode flag after `--` is still `pi eval`'s to refuse, not a print run of the words before it.
    const mode = await user.pi(["eval", suite, "--", "-p"]);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toBe(
      "pi eval: -p cannot be passed to the runs: pi eval sets the mode and the session of each run\n",
    );
    expect(server.requests).toHaveLength(0);
  });

  it("a run that outlives --timeout is an error, and the eval exits 1", async () => {
    user.scriptFaux([
      { content: [{ type: "toolCall", name: "bash", arguments: { command: "sleep 60" } }], stopReason: "toolUse" },
    ]);
    const suite = join(user.home, "slow");
    writeTree(suite, { "sleeper.json": { prompt: "wait", checks: [{ answer: { contains: "x" } }] } });
    const run = await user.pi(["eval", suite, "--model", "faux/faux-1", "--timeout", "2"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^sleeper\s+no-docs\s+1\s+ERROR\s/m);
    expect(run.stdout).toContain("sleeper (no-docs, run 1): error: timed out after 2 s");
    expect(run.stdout).toContain("no-docs: 0/1 passed (1 errors)");
  });

  it("--keep leaves each run's folder and session behind and names them; pi flags after -- reach every run", async () => {
    user.scriptFaux([
      {
        content: [{ type: "toolCall", name: "write", arguments: { path: "out.txt", content: "kept" } }],
        stopReason: "toolUse",
      },
      { content: "written" },
    ]);
    const suite = join(user.home, "keep");
    writeTree(suite, { "writer.json": { prompt: "write out.txt", checks: [{ file: "out.txt", contains: "kept" }] } });
    const report = join(user.home, "keep.json");
    const run = await user.pi([
      "eval",
      suite,
      "--model",
      "faux/faux-1",
      "--keep",
      "--json",
      report,
      "--",
      "--tools",
      "write",
    ]);
    expect(run.code).toBe(0);
    const [result] = JSON.parse(readFileSync(report, "utf8")).results;
    expect(result).toMatchObject({ status: "pass", turns: 2, answer: "written" });
    expect(run.stdout).toContain(`writer (no-docs, run 1): kept in ${result.folder} (session in ${result.sessionDir})`);
    expect(readFileSync(join(result.folder, "out.txt"), "utf8")).toBe("kept");
    const sessions = readdirSync(result.sessionDir).filter((name) => name.endsWith(".jsonl"));
    expect(sessions).toHaveLength(1);
    const header = JSON.parse(readFileSync(join(result.sessionDir, sessions[0]!), "utf8").split("\n")[0]!);
    expect(header).toMatchObject({ type: "session", cwd: result.folder });
    // Without the write tool (`-- --tools read`) the same script writes nothing, and the check fails.
    const readOnly = await user.pi(["eval", suite, "--model", "faux/faux-1", "--", "--tools", "read"]);
    expect(readOnly.code).toBe(1);
    expect(readOnly.stdout).toContain('writer (no-docs, run 1): file out.txt contains "kept": out.txt does not exist');
  });

  it("Ctrl+C ends the running task and what its agent started, prints the table of what ran and exits 1", async () => {
    const marker = join(user.home, "sleeper.pid");
    // The bash tool's command records its pid, then becomes a long sleep.
    user.scriptFaux([
      {
        content: [{ type: "toolCall", name: "bash", arguments: { command: `echo $$ > ${marker}; exec sleep 60` } }],
        stopReason: "toolUse",
      },
    ]);
    const suite = join(user.home, "interrupted");
    writeTree(suite, {
      "one.json": { prompt: "wait", checks: [{ answer: { contains: "x" } }] },
      "two.json": { prompt: "wait", checks: [{ answer: { contains: "x" } }] },
    });
    const child = spawn(process.execPath, [PI_BIN, "eval", suite, "--model", "faux/faux-1"], {
      cwd: user.project,
      env: { ...process.env, ...user.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    // Interrupt once the first run's agent is inside its bash tool.
    while (!existsSync(marker) || readFileSync(marker, "utf8").trim() === "")
      await new Promise((resolve) => setTimeout(resolve, 50));
    const sleeper = Number(readFileSync(marker, "utf8"));
    child.kill("SIGINT");
    expect(await closed).toBe(1);
    expect(stdout).toMatch(/^one\s+no-docs\s+1\s+ERROR\s+0\/0\s/m);
    expect(stdout).not.toMatch(/^two\s/m);
    expect(stdout).toContain("one (no-docs, run 1): error: interrupted");
    expect(stderr).toContain("pi eval: interrupted after 1 of 2 runs");
    expect(() => process.kill(sleeper, 0)).toThrow(/ESRCH/);
  });

  it("a pi -p run loads the eval plugin but not its runner; pi eval --help loads the runner", async () => {
    user.scriptFaux([{ content: "plain answer" }]);
    const runner = (modules: string[]): boolean => modules.some((url) => /\/dist\/eval-cli-[^/]*\.js$/.test(url));
    const print = await runPiRecordingModules(["-p", "--model", "faux/faux-1", "hi"], user.project, user.env);
    expect(print.run.stdout).toBe("plain answer\n");
    expect(print.modules.some((url) => url.endsWith("/dist/plugins/eval/index.js"))).toBe(true);
    expect(runner(print.modules)).toBe(false);
    const help = await runPiRecordingModules(["eval", "--help"], user.project, user.env);
    expect(help.run.code).toBe(0);
    expect(help.run.stdout).toMatch(/^Usage:\n {2}pi eval <suite>/);
    expect(runner(help.modules)).toBe(true);
  });
});
