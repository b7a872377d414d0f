/**
 * The MCP plugin in the real agent stack (loop, session, store) with the faux provider scripting the
 * model's tool calls, against the real `server-everything` and `server-filesystem` started over stdio
 * through the plugin's config.
 */
import { hostEnvironmentEntry } from "../../support/host-environment.js";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_EVENT, type SessionEvent } from "../../../contracts/agent-session.js";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, type SessionHarness } from "../agent-session/harness.js";
import {
  alive,
  everythingServer,
  exited,
  filesystemServer,
  mcpEntry,
  mcpSource,
  notices,
  serverPid,
} from "./mcp-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

function toolResults(h: SessionHarness): ToolResultMessage[] {
  return h.session.call("messages").filter((m): m is ToolResultMessage => m.role === "toolResult");
}

function text(result: ToolResultMessage): string {
  return result.content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("\n");
}

/** Resolves with the first session event that matches. */
function nextEvent(h: SessionHarness, match: (e: SessionEvent) => boolean): Promise<SessionEvent> {
  return new Promise((resolve) => {
    const off = h.kernel.on(SESSION_EVENT, (e: SessionEvent) => {
      if (!match(e)) return;
      off();
      resolve(e);
    });
  });
}

describe("MCP over stdio: server-everything and server-filesystem", () => {
  it("starts servers lazily, lists their tools with their JSON Schemas, and runs calls through the loop", async () => {
    const root = mkdtempSync(join(tmpdir(), "pi-mcp-fs-"));
    writeFileSync(join(root, "notes.txt"), "the secret word is tangerine\n");
    const h = (harness = await bootSession({
      faux: {
        responses: [
          {
            content: [
              fauxToolCall("mcp__filesystem__read_text_file", { path: join(root, "notes.txt") }, "fs1"),
              fauxToolCall("mcp__everything__get-sum", { a: 2, b: 3 }, "sum1"),
            ],
          },
          { content: "done" },
        ],
      },
      entries: [mcpEntry({ servers: { everything: everythingServer(), filesystem: filesystemServer(root) } })],
    }));

    // Booted, but nothing started: setup only declares.
    const before = await mcpSource(h.kernel).servers();
    expect(before.map((s) => [s.spec.name, s.connection?.status, s.connection?.pid])).toEqual([
      ["everything", "stopped", undefined],
      ["filesystem", "stopped", undefined],
    ]);

    await h.session.call("prompt", "read the notes and add 2 and 3");
    const tools = h.faux.requests[0]!.context.tools!;
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "mcp__everything__echo",
        "mcp__everything__get-sum",
        "mcp__filesystem__read_text_file",
        "mcp__filesystem__list_directory",
      ]),
    );
    // The model sees the server's schema as the server wrote it.
    expect(JSON.parse(JSON.stringify(tools.find((t) => t.name === "mcp__everything__get-sum")!.parameters))).toEqual({
      type: "object",
      properties: {
        a: { type: "number", description: "First number" },
        b: { type: "number", description: "Second number" },
      },
      required: ["a", "b"],
      $schema: "http://json-schema.org/draft-07/schema#",
    });
    expect(tools.find((t) => t.name === "mcp__filesystem__read_text_file")!.description).toMatch(/file/i);

    const [read, sum] = toolResults(h);
    expect(read).toMatchObject({ toolCallId: "fs1", toolName: "mcp__filesystem__read_text_file", isError: false });
    expect(text(read!)).toContain("the secret word is tangerine");
    expect(sum).toMatchObject({ toolCallId: "sum1", isError: false });
    expect(text(sum!)).toContain("5");
    expect(await serverPid(h.kernel, "everything")).toBeTypeOf("number");
    expect(notices(h.events)).toEqual([]);
  });

  it("surfaces server errors as tool errors, and invalid arguments never reach the server", async () => {
    const root = mkdtempSync(join(tmpdir(), "pi-mcp-fs-"));
    const h = (harness = await bootSession({
      faux: {
        responses: [
          {
            content: [
              fauxToolCall("mcp__filesystem__read_text_file", { path: "/etc/hostname" }, "outside"),
              fauxToolCall("mcp__everything__get-sum", { a: "two", b: 3 }, "badargs"),
              fauxToolCall("mcp__everything__read_resource", { uri: "demo://no/such/resource" }, "nores"),
            ],
          },
          { content: "done" },
        ],
      },
      entries: [mcpEntry({ servers: { everything: everythingServer(), filesystem: filesystemServer(root) } })],
    }));
    await h.session.call("prompt", "try things");
    const [outside, badArgs, noResource] = toolResults(h);
    expect(outside!.isError).toBe(true);
    expect(text(outside!)).toMatch(/access denied|outside allowed directories/i);
    expect(badArgs!.isError).toBe(true);
    expect(text(badArgs!)).toBe(
      'Invalid arguments for "mcp__everything__get-sum": /a: Expected number. Fix the arguments and call it again.',
    );
    expect(noResource!.isError).toBe(true);
    expect(text(noResource!)).toMatch(/^MCP server "everything": .*demo:\/\/no\/such\/resource/);
  });

  it("a server killed during a call is reported in that call's result, and restarted on the next call", async () => {
    const h = (harness = await bootSession({
      faux: {
        responses: [
          {
            content: [
              fauxToolCall("mcp__everything__trigger-long-running-operation", { duration: 30, steps: 300 }, "long"),
            ],
          },
          { content: [fauxToolCall("mcp__everything__echo", { message: "after the crash" }, "echo")] },
          { content: "done" },
        ],
      },
      entries: [mcpEntry({ servers: { everything: everythingServer() } })],
    }));
    let killed: number | undefined;
    // Kill the server once the call is surely under way: at its first progress report.
    const off = h.kernel.on(SESSION_EVENT, (e: SessionEvent) => {
      if (e.type !== "tool_execution_update" || killed !== undefined) return;
      void serverPid(h.kernel, "everything").then((pid) => {
        killed = pid!;
        process.kill(pid!, "SIGKILL");
      });
    });
    await h.session.call("prompt", "run the long operation");
    off();
    const [long, echo] = toolResults(h);
    expect(long!.isError).toBe(true);
    expect(text(long!)).toBe(
      'MCP server "everything" was killed by SIGKILL while running "trigger-long-running-operation"; it will be restarted on the next call',
    );
    expect(echo!.isError).toBe(false);
    expect(text(echo!)).toBe("Echo: after the crash");
    const pid = await serverPid(h.kernel, "everything");
    expect(pid).toBeTypeOf("number");
    expect(pid).not.toBe(killed);
    expect(notices(h.events)).toEqual([
      {
        level: "warning",
        message: 'MCP server "everything" was killed by SIGKILL; it will be restarted when next used',
      },
    ]);
  });

  it("a server killed between calls is reported with a notice and in the next call's result, which runs on a new process", async () => {
    const h = (harness = await bootSession({
      faux: {
        responses: [
          { content: [fauxToolCall("mcp__everything__echo", { message: "one" }, "e1")] },
          { content: "first done" },
          { content: [fauxToolCall("mcp__everything__echo", { message: "two" }, "e2")] },
          { content: "second done" },
        ],
      },
      entries: [mcpEntry({ servers: { everything: everythingServer() } })],
    }));
    await h.session.call("prompt", "echo one");
    const first = (await serverPid(h.kernel, "everything"))!;
    const reported = nextEvent(h, (e) => e.type === "notice");
    process.kill(first, "SIGKILL");
    expect(await reported).toEqual({
      type: "notice",
      level: "warning",
      message: 'MCP server "everything" was killed by SIGKILL; it will be restarted when next used',
    });

    await h.session.call("prompt", "echo two");
    const second = toolResults(h)[1]!;
    expect(second.isError).toBe(false);
    expect(second.content).toEqual([
      {
        type: "text",
        text: '[MCP server "everything" was killed by SIGKILL; it was restarted for this call, so anything it held in memory is gone]',
      },
      { type: "text", text: "Echo: two" },
    ]);
    const restarted = await serverPid(h.kernel, "everything");
    expect(restarted).toBeTypeOf("number");
    expect(restarted).not.toBe(first);
  });

  it("offers resources and prompts of a server that has them, as tools", async () => {
    const h = (harness = await bootSession({
      faux: {
        responses: [
          {
            content: [
              fauxToolCall("mcp__everything__list_resources", {}, "lr"),
              fauxToolCall("mcp__everything__read_resource", { uri: "demo://resource/dynamic/text/7" }, "rr"),
              fauxToolCall("mcp__everything__list_prompts", {}, "lp"),
              fauxToolCall("mcp__everything__get_prompt", { name: "args-prompt", arguments: { city: "Lyon" } }, "gp"),
            ],
          },
          { content: "done" },
        ],
      },
      entries: [mcpEntry({ servers: { everything: everythingServer() } })],
    }));
    await h.session.call("prompt", "look around");
    const [list, read, prompts, prompt] = toolResults(h);
    expect(list!.isError).toBe(false);
    expect(text(list!)).toContain("demo://resource/static/document/architecture.md");
    expect(text(list!)).toContain("demo://resource/dynamic/text/{resourceId} (template)");
    expect(read!.isError).toBe(false);
    expect(text(read!)).toMatch(/^\[resource demo:\/\/resource\/dynamic\/text\/7\]\n.*7/s);
    expect(text(prompts!)).toMatch(/^args-prompt\(city, state\?\)/m);
    expect(prompt!.isError).toBe(false);
    expect(text(prompt!)).toMatch(/^user: .*Lyon/m);
  });

  it("passes the entry's env to the server on top of the SDK's safe default environment", async () => {
    const h = (harness = await bootSession({
      faux: { responses: [{ content: [fauxToolCall("mcp__everything__get-env", {}, "env")] }, { content: "done" }] },
      entries: [mcpEntry({ servers: { everything: everythingServer({ env: { PI_MCP_TEST_MARK: "marked" } }) } })],
    }));
    await h.session.call("prompt", "env?");
    const output = text(toolResults(h)[0]!);
    expect(output).toContain('"PI_MCP_TEST_MARK": "marked"');
    expect(output).toContain('"PATH"');
  });

  it("a server that does not answer in time is reported once and left out; the other servers work", async () => {
    const h = (harness = await bootSession({
      faux: {
        responses: [
          { content: [fauxToolCall("mcp__everything__echo", { message: "still here" }, "e1")] },
          { content: "first" },
          { content: "second" },
        ],
      },
      entries: [
        mcpEntry({
          servers: {
            silent: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1 << 30)"], startTimeoutMs: 300 },
            missing: { command: join(tmpdir(), "no-such-mcp-server-binary") },
            everything: everythingServer(),
          },
        }),
      ],
    }));
    await h.session.call("prompt", "one");
    await h.session.call("prompt", "two");
    expect(text(toolResults(h)[0]!)).toBe("Echo: still here");
    const names = h.faux.requests[0]!.context.tools!.map((t) => t.name);
    expect(names.some((n) => n.startsWith("mcp__silent__") || n.startsWith("mcp__missing__"))).toBe(false);
    expect(names).toContain("mcp__everything__echo");
    // One notice per failed server, though tools were listed for three requests.
    const reported = notices(h.events).sort((a, b) => a.message.localeCompare(b.message));
    expect(reported).toEqual([
      {
        level: "warning",
        message: expect.stringMatching(
          /^MCP server "missing" failed to start: spawn .*no-such-mcp-server-binary ENOENT$/,
        ),
      },
      { level: "warning", message: 'MCP server "silent" failed to start: did not answer within 300 ms' },
    ]);
    const statuses = await mcpSource(h.kernel).servers();
    expect(statuses.map((s) => [s.spec.name, s.connection?.status])).toEqual([
      ["silent", "failed"],
      ["missing", "failed"],
      ["everything", "ready"],
    ]);
  });

  it("retiring the plugin's generation (reload, shutdown) closes clients and ends server processes", async () => {
    const h = (harness = await bootSession({
      faux: {
        responses: [
          { content: [fauxToolCall("mcp__everything__echo", { message: "x" })] },
          { content: "ok" },
          { content: [fauxToolCall("mcp__everything__echo", { message: "y" })] },
          { content: "ok" },
        ],
      },
      entries: [mcpEntry({ servers: { everything: everythingServer() } })],
    }));
    await h.session.call("prompt", "one");
    const first = (await serverPid(h.kernel, "everything"))!;
    expect(alive(first)).toBe(true);
    const reload = await h.kernel.reload("mcp");
    expect(reload.status).toBe("committed");
    await exited(first);
    expect(notices(h.events)).toEqual([]);

    await h.session.call("prompt", "two");
    expect(text(toolResults(h)[1]!)).toBe("Echo: y");
    const second = (await serverPid(h.kernel, "everything"))!;
    expect(second).not.toBe(first);
    await h.kernel.shutdown();
    harness = undefined;
    await exited(second);
  });
});

describe("MCP servers from settings.json (global and project)", () => {
  it("reads mcpServers through the settings plugin; a bad entry is reported once and the others work", async () => {
    const { default: settingsPlugin } = await import("../../../plugins/config/settings/index.js");
    const agentDir = mkdtempSync(join(tmpdir(), "pi-mcp-agent-"));
    const cwd = mkdtempSync(join(tmpdir(), "pi-mcp-project-"));
    writeFileSync(
      join(agentDir, "settings.json"),
      JSON.stringify({ mcpServers: { everything: everythingServer(), broken: { args: ["x"] } } }),
    );
    mkdirSync(join(cwd, ".pi"));
    writeFileSync(join(cwd, "hello.txt"), "project file\n");
    writeFileSync(join(cwd, ".pi", "settings.json"), JSON.stringify({ mcpServers: { files: filesystemServer(cwd) } }));
    const h = (harness = await bootSession({
      agentDir,
      cwd,
      faux: {
        responses: [
          {
            content: [
              fauxToolCall("mcp__files__read_text_file", { path: join(cwd, "hello.txt") }, "f"),
              fauxToolCall("mcp__everything__echo", { message: "g" }, "g"),
            ],
          },
          { content: "done" },
        ],
      },
      // The project is trusted (as after `pi trust`), so its settings' servers count.
      entries: [
        hostEnvironmentEntry(cwd, agentDir),
        {
          id: "settings",
          source: { kind: "inline", label: "settings", definition: settingsPlugin },
          config: { agentDir },
        },
        mcpEntry({}),
      ],
    }));
    await h.session.call("prompt", "go");
    const [file, echo] = toolResults(h);
    expect(text(file!)).toBe("project file\n");
    expect(text(echo!)).toBe("Echo: g");
    expect(notices(h.events)).toEqual([
      {
        level: "warning",
        message: 'MCP: settings "mcpServers".broken: needs "command" (a local server) or "url" (a remote one)',
      },
    ]);
  });
});
