import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { agentHome, messageRoles, sessionLines, type AgentHome } from "./agent-home.js";

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

let user: AgentHome;
beforeEach(() => {
  user = agentHome();
});

describe("pi -p (built CLI, faux provider scripted through the user's plugins.json)", () => {
  it('pi -p "hello" prints the answer, writes the session and exits 0', async () => {
    user.scriptFaux([{ content: "Hello! How can I help?" }]);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "hello"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello! How can I help?\n");
    const [file] = user.sessionFiles();
    expect(messageRoles(file!)).toEqual(["user", "assistant"]);
    expect(sessionLines(file!)[0]).toMatchObject({ type: "session", version: 3, cwd: user.project });
  });

  it("a tool round trip: the model reads a file, the final answer prints, the session holds user/assistant/toolResult/assistant", async () => {
    const notes = join(user.project, "notes.txt");
    writeFileSync(notes, "the secret word is tangerine\n");
    user.scriptFaux([
      { content: [{ type: "toolCall", id: "call_read_1", name: "read", arguments: { path: "notes.txt" } }] },
      { content: "The secret word is tangerine." },
    ]);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "what is the secret word in notes.txt?"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The secret word is tangerine.\n");
    const [file] = user.sessionFiles();
    expect(messageRoles(file!)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    const result = sessionLines(file!).find((e) => e.type === "message" && e.message.role === "toolResult").message;
    expect(result).toMatchObject({ toolCallId: "call_read_1", toolName: "read", isError: false });
    expect(result.content[0].text).toContain("the secret word is tangerine");
  });

  it("piped stdin, @file text and @file images join the first message; later messages follow one by one", async () => {
    writeFileSync(join(user.project, "code.ts"), "export const answer = 42;");
    writeFileSync(join(user.project, "dot.png"), PNG);
    writeFileSync(join(user.project, "empty.txt"), "");
    user.scriptFaux([{ content: "reviewed" }, { content: "and the follow-up" }]);
    const run = await user.pi(
      ["-p", "--model", "faux/faux-1", "@code.ts", "@dot.png", "@empty.txt", "Review this", "Then summarize"],
      { input: "  piped log line\n" },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("and the follow-up\n");
    const users = sessionLines(user.sessionFiles()[0]!)
      .filter((e) => e.type === "message" && e.message.role === "user")
      .map((e) => e.message.content);
    expect(users).toHaveLength(2);
    const [text, image] = users[0];
    expect(text).toEqual({
      type: "text",
      text: `piped log line\n\n<file name="${join(user.project, "code.ts")}">\nexport const answer = 42;\n</file>\n<file name="${join(user.project, "dot.png")}"></file>\nReview this`,
    });
    expect(image).toEqual({ type: "image", mimeType: "image/png", data: PNG.toString("base64") });
    expect(users[1]).toBe("Then summarize");
  });

  it("piped stdin alone is the message", async () => {
    user.scriptFaux([{ content: "summary" }]);
    const run = await user.pi(["--model", "faux/faux-1"], { input: "Summarize: pi-host is a plugin host.\n" });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("summary\n");
    expect(sessionLines(user.sessionFiles()[0]!).find((e) => e.type === "message").message.content).toBe(
      "Summarize: pi-host is a plugin host.",
    );
  });

  it("--no-session writes nothing", async () => {
    user.scriptFaux([{ content: "ephemeral" }]);
    const run = await user.pi(["-p", "--no-session", "--model", "faux/faux-1", "hi"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("ephemeral\n");
    expect(existsSync(join(user.agent, "sessions"))).toBe(false);
    // Control: the same run without the flag does write one.
    await user.pi(["-p", "--model", "faux/faux-1", "hi"]);
    expect(user.sessionFiles()).toHaveLength(1);
  });

  it("-c continues the most recent session; --session opens a file or an id prefix", async () => {
    user.scriptFaux([{ content: "one" }]);
    expect((await user.pi(["-p", "--model", "faux/faux-1", "first"])).code).toBe(0);
    const [first] = user.sessionFiles();
    user.scriptFaux([{ content: "two" }]);
    const continued = await user.pi(["-p", "-c", "second"]);
    expect(continued.stderr).toBe("");
    expect(continued.stdout).toBe("two\n");
    expect(user.sessionFiles()).toEqual([first]);
    expect(messageRoles(first!)).toEqual(["user", "assistant", "user", "assistant"]);

    user.scriptFaux([{ content: "other" }]);
    await user.pi(["-p", "--model", "faux/faux-1", "another session"]);
    expect(user.sessionFiles()).toHaveLength(2);

    user.scriptFaux([{ content: "three" }]);
    const byFile = await user.pi(["-p", "--session", first!, "third"]);
    expect(byFile.stdout).toBe("three\n");
    expect(messageRoles(first!)).toHaveLength(6);

    const id = sessionLines(first!)[0].id as string;
    user.scriptFaux([{ content: "four" }]);
    const byId = await user.pi(["-p", "--session", id.slice(0, 8), "fourth"]);
    expect(byId.stderr).toBe("");
    expect(byId.stdout).toBe("four\n");
    expect(messageRoles(first!)).toHaveLength(8);
    expect(user.sessionFiles()).toHaveLength(2);

    const missing = await user.pi(["-p", "--session", "ffffffff", "hi"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `pi: no session id starts with "ffffffff"; list this folder's sessions with "pi -r" or pass a session file\n`,
    );
  });

  it("-r lists this folder's sessions and says how to open one", async () => {
    user.scriptFaux([{ content: "one" }]);
    await user.pi(["-p", "--model", "faux/faux-1", "remember the milk"]);
    const id = sessionLines(user.sessionFiles()[0]!)[0].id as string;
    const run = await user.pi(["-r"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ID\s+MODIFIED\s+MESSAGES\s+NAME \/ FIRST MESSAGE\n/);
    expect(run.stdout).toContain(id);
    expect(run.stdout).toContain("remember the milk");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("pi --session <id>");
  });

  it("a provider error prints one line on stderr and exits 1", async () => {
    user.scriptFaux([{ stopReason: "error", errorMessage: "400 invalid request: messages[0] is empty" }]);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "hi"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe("400 invalid request: messages[0] is empty\n");
  });

  it("--model unknown: one line with the closest matches, exit 1", async () => {
    const run = await user.pi(["-p", "--model", "claude-sonet-4-5", "hi"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^unknown model "claude-sonet-4-5": did you mean anthropic\/claude-sonnet-4-5/);
  });

  it("a missing API key: one line naming the environment variable and auth.json, exit 1", async () => {
    const run = await user.pi(["-p", "--model", "anthropic/claude-sonnet-4-5", "hi"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("ANTHROPIC_API_KEY");
    expect(run.stderr).toContain(join(user.agent, "auth.json"));
  });

  it("--tools reaches the session: a tool outside the allow-list is not there to call", async () => {
    user.scriptFaux([
      { content: [{ type: "toolCall", id: "call_ls", name: "ls", arguments: {} }] },
      { content: "done" },
    ]);
    const run = await user.pi(["-p", "--tools", "read", "--model", "faux/faux-1", "list the folder"]);
    expect(run.code).toBe(0);
    const result = sessionLines(user.sessionFiles()[0]!).find(
      (e) => e.type === "message" && e.message.role === "toolResult",
    ).message;
    expect(result).toMatchObject({ toolName: "ls", isError: true });
    expect(result.content[0].text).toBe('Tool "ls" not found. Available tools: read.');
  });

  it("--watch watches file-based plugins for the run and lets the process exit when the run ends", async () => {
    const fixture = fileURLToPath(new URL("../fixtures/plugins/hello.ts", import.meta.url));
    user.scriptFaux([{ content: "watched" }]);
    const run = await user.pi(["-p", "--watch", "--plugin", fixture, "--model", "faux/faux-1", "hi"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("watched\n");
  });

  it("bad input: unknown flag with the closest one, bad values, contradicting flags, nothing to send — one line, exit 2", async () => {
    const cases: Array<[string[], string]> = [
      [["--modle", "x", "hi"], 'pi: unknown flag --modle; did you mean --model? run "pi --help" for the options\n'],
      [["-x", "hi"], "pi: unknown flag -x; "],
      [
        ["--thinking", "loud", "hi"],
        'pi: --thinking must be one of off, minimal, low, medium, high, xhigh, max, not "loud"\n',
      ],
      [["--mode", "xml", "hi"], 'pi: --mode must be one of text, json, rpc, acp, not "xml"\n'],
      [["-c", "--no-session", "hi"], "pi: --continue and --no-session cannot be combined; choose one\n"],
      [["--tools", "read", "--no-tools", "hi"], "pi: --tools and --no-tools cannot be combined; choose one\n"],
      [["--model"], "pi: --model needs a value: --model <provider/id[:thinking]>\n"],
      [["-p"], "pi: nothing to send: give a message, an @file, or pipe text into stdin\n"],
      [["-p", "@missing.txt", "hi"], `pi: @missing.txt: no such file (${join(user.project, "missing.txt")})\n`],
    ];
    for (const [args, stderr] of cases) {
      const run = await user.pi(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(run.stderr.startsWith(stderr), `${args.join(" ")}: ${run.stderr}`).toBe(true);
    }
    expect(user.sessionFiles()).toEqual([]);
  });

  it("--help lists every flag of pi's interface and ours", async () => {
    const run = await user.pi(["--help"]);
    expect(run.code).toBe(0);
    const flags = [
      "-p, --print",
      "--mode <text|json|rpc|acp>",
      "-c, --continue",
      "-r, --resume",
      "--session <path|id>",
      "--session-dir <dir>",
      "--no-session",
      "--model <provider/id[:thinking]>",
      "--provider <name>",
      "--api-key <key>",
      "--thinking <level>",
      "-t, --tools <a,b,...>",
      "-nt, --no-tools",
      "--system-prompt <text>",
      "--append-system-prompt <text>",
      "--skill <path>",
      "--prompt-template <path>",
      "-nc, --no-context-files",
      "--list-models [search]",
      "--compat-events [=0.73]",
      "--watch",
      "--plugin [id=]<use>",
      "--no-plugin <id>",
      "--distribution <file>",
      "-v, --version",
      "-h, --help",
    ];
    for (const flag of flags) expect(run.stdout).toContain(flag);
  });
});
