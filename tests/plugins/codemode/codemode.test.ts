/**
 * The codemode tool in the real agent stack (loop, session, store) with the faux provider scripting
 * the model: scripts call the real `read` tool, MCP tools, and go through validation and hooks.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_EVENT, type SessionEvent } from "../../../contracts/agent-session.js";
import type { ToolCallInfo } from "../../../contracts/agent.js";
import type { AssistantMessage, ToolResultMessage } from "../../../contracts/ai/index.js";
import { HooksContract } from "../../../contracts/hooks.js";
import { definePlugin, type PluginEntry } from "../../../kernel/index.js";
import codemodePlugin from "../../../plugins/integrations/codemode/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import toolRead from "../../../plugins/tools/tool-read/index.js";
import { bootSession, type SessionHarness } from "../agent-session/harness.js";
import { everythingServer, mcpEntry } from "../mcp/mcp-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

function codemodeEntry(config: Record<string, unknown> = {}): PluginEntry {
  return { id: "codemode", source: { kind: "inline", label: "codemode", definition: codemodePlugin }, config };
}

function results(h: SessionHarness): ToolResultMessage[] {
  return h.session.call("messages").filter((m): m is ToolResultMessage => m.role === "toolResult");
}

function text(result: ToolResultMessage): string {
  return result.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

/** One scripted turn that runs `code` through codemode, then a closing answer. */
function runsScript(code: string): { responses: Array<{ content: unknown }> } {
  return { responses: [{ content: [fauxToolCall("codemode", { code }, "cm1")] }, { content: "done" }] as never };
}

describe("codemode in a session", () => {
  it("a script reading 100 files returns a summary, and the session records ONE tool call", async () => {
    const h = (harness = await bootSession({
      faux: runsScript(`
        let words = 0;
        const longest = { file: "", words: 0 };
        for (let i = 0; i < 100; i++) {
          const file = "notes/note-" + i + ".txt";
          const text = await tools.read({ path: file });
          const count = text.trim().split(/\\s+/).length;
          words += count;
          if (count > longest.words) Object.assign(longest, { file, words: count });
        }
        console.log("read 100 files");
        return { words, longest };
      `) as never,
      extra: [toolRead],
      entries: [codemodeEntry()],
    }));
    mkdirSync(join(h.cwd, "notes"));
    for (let i = 0; i < 100; i++)
      writeFileSync(join(h.cwd, "notes", `note-${i}.txt`), `${"word ".repeat(i + 1).trim()}\n`);

    let nestedStarts = 0;
    h.kernel.on(SESSION_EVENT, (e: SessionEvent) => {
      if (e.type === "tool_execution_start") nestedStarts++;
    });
    await h.session.call("prompt", "count the words in the notes");

    const [only, ...rest] = results(h);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({
      toolCallId: "cm1",
      toolName: "codemode",
      isError: false,
      details: { toolCalls: 100, failedToolCalls: 0 },
    });
    expect(text(only!)).toBe(
      'read 100 files\n\nReturn value:\n{\n  "words": 5050,\n  "longest": {\n    "file": "notes/note-99.txt",\n    "words": 100\n  }\n}',
    );
    // The transcript: user, assistant (one tool call), one tool result, assistant.
    expect(h.session.call("messages").map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    const calls = h.session
      .call("messages")
      .flatMap((m) =>
        m.role === "assistant" ? (m as AssistantMessage).content.filter((b) => b.type === "toolCall") : [],
      );
    expect(calls).toHaveLength(1);
    expect(h.session.call("stats")).toMatchObject({ toolCalls: 1, toolResults: 1 });
    expect(
      h.session
        .call("entries")
        .filter((e) => e.type === "message" && (e as { message: { role: string } }).message.role === "toolResult"),
    ).toHaveLength(1);
    // Only the codemode call itself was a tool execution of the loop.
    expect(nestedStarts).toBe(1);
  });

  it("describes the active tools as TypeScript declarations, MCP tools included, itself excluded", async () => {
    const h = (harness = await bootSession({
      faux: runsScript(`return await tools.mcp__everything__get_sum({ a: 20, b: 22 });`) as never,
      extra: [toolRead],
      entries: [mcpEntry({ servers: { everything: everythingServer() } }), codemodeEntry()],
    }));
    await h.session.call("prompt", "add");
    const tool = h.faux.requests[0]!.context.tools!.find((t) => t.name === "codemode")!;
    expect(tool.parameters).toMatchObject({ type: "object", required: ["code"] });
    const description = tool.description;
    expect(description).toContain("declare const tools: {");
    expect(description).toMatch(
      / {2}read\(args: \{\n {4}\/\*\* Path to the file to read \(relative or absolute\) \*\/\n {4}path: string;/,
    );
    expect(description).toMatch(
      / {2}mcp__everything__get_sum\(args: \{\n {4}\/\*\* First number \*\/\n {4}a: number;\n {4}\/\*\* Second number \*\/\n {4}b: number;\n {2}\}\): Promise<string>;/,
    );
    expect(description).toContain('/** (tool "mcp__everything__get-sum") ');
    expect(description).not.toMatch(/^\s+codemode\(/m);
    const [result] = results(h);
    expect(result).toMatchObject({ isError: false });
    expect(text(result!)).toContain("42");
  });

  it("nested calls are validated against the tool's schema: a bad call throws inside the script", async () => {
    const h = (harness = await bootSession({
      faux: runsScript(`
        try { await tools.read({ file: "x.txt" }); return "no error"; }
        catch (e) { return "caught: " + e.message; }
      `) as never,
      extra: [toolRead],
      entries: [codemodeEntry()],
    }));
    await h.session.call("prompt", "go");
    const [result] = results(h);
    expect(result!.isError).toBe(false);
    expect(text(result!)).toBe(
      'caught: Invalid arguments for "read": /path: Expected required property; /path: Expected string',
    );
  });

  it("nested calls go through beforeToolCall and afterToolCall in order; a block throws with its reason", async () => {
    const seen: string[] = [];
    const guard = definePlugin({
      id: "guard",
      version: "1.0.0",
      provides: [HooksContract],
      setup: (ctx) =>
        ctx.provide(HooksContract, {
          beforeToolCall: async (call: ToolCallInfo) => {
            seen.push(`before ${call.toolCall.name} ${JSON.stringify(call.args)}`);
            if (call.toolCall.name === "secret") return { block: true, reason: "the secret tool is off limits" };
            return undefined;
          },
          afterToolCall: async (call) => {
            seen.push(`after ${call.toolCall.name}`);
            if (call.toolCall.name === "shout")
              return { content: [{ type: "text", text: `${(call.result.content[0] as { text: string }).text}!!` }] };
            return undefined;
          },
        }),
    });
    const shout = {
      name: "shout",
      description: "upper-cases",
      parameters: Type.Object({ text: Type.String() }),
      execute: async (_id: string, args: { text: string }) => ({
        content: [{ type: "text" as const, text: args.text.toUpperCase() }],
      }),
    };
    let secretRan = false;
    const secret = {
      name: "secret",
      description: "never runs",
      parameters: Type.Object({}),
      execute: async () => ((secretRan = true), { content: [{ type: "text" as const, text: "leaked" }] }),
    };
    const h = (harness = await bootSession({
      faux: runsScript(`
        const loud = await tools.shout({ text: "hi" });
        let blocked;
        try { await tools.secret({}); } catch (e) { blocked = e.message; }
        return { loud, blocked };
      `) as never,
      tools: [shout, secret],
      extra: [guard],
      entries: [codemodeEntry()],
    }));
    await h.session.call("prompt", "go");
    const [result] = results(h);
    expect(JSON.parse(text(result!))).toEqual({ loud: "HI!!", blocked: "the secret tool is off limits" });
    expect(secretRan).toBe(false);
    // The outer codemode call passes the hooks too, around the nested ones.
    expect(seen.filter((s) => !s.startsWith("before codemode") && s !== "after codemode")).toEqual([
      'before shout {"text":"hi"}',
      "after shout",
      "before secret {}",
    ]);
    expect(seen[0]).toMatch(/^before codemode /);
    expect(seen.at(-1)).toBe("after codemode");
  });

  it("while(true){} is stopped at the time limit and reported as the call's error", async () => {
    const h = (harness = await bootSession({
      faux: runsScript("while (true) {}") as never,
      entries: [codemodeEntry({ timeLimitMs: 300 })],
    }));
    await h.session.call("prompt", "spin");
    const [result] = results(h);
    expect(result!.isError).toBe(true);
    expect(text(result!)).toBe("Error: the script was stopped at its time limit of 300 ms");
  });

  it("allocating past the memory limit fails inside the sandbox; console output before it is kept", async () => {
    const h = (harness = await bootSession({
      faux: runsScript(
        "console.log('starting');\nconst hog = [];\nfor (let i = 0; ; i++) hog.push({ i, text: 'item ' + i });",
      ) as never,
      entries: [codemodeEntry({ memoryLimitMb: 8 })],
    }));
    await h.session.call("prompt", "hog");
    const [result] = results(h);
    expect(result!.isError).toBe(true);
    expect(text(result!)).toBe(
      "starting\n\nError: InternalError: out of memory (the sandbox's memory limit is 8 MB) (line 3)",
    );
  });

  it("process, require, fetch, import() and setTimeout are absent in a session's script", async () => {
    const h = (harness = await bootSession({
      faux: runsScript(`
        const kinds = [typeof process, typeof require, typeof fetch, typeof setTimeout];
        let imported;
        try { await import("node:child_process"); imported = "yes"; } catch (e) { imported = "no"; }
        return kinds.join(",") + " import:" + imported;
      `) as never,
      entries: [codemodeEntry()],
    }));
    await h.session.call("prompt", "probe");
    expect(text(results(h)[0]!)).toBe("undefined,undefined,undefined,undefined import:no");
  });

  it("cuts the result at the output limit", async () => {
    const h = (harness = await bootSession({
      faux: runsScript("return 'x'.repeat(5000);") as never,
      entries: [codemodeEntry({ maxOutputBytes: 1024 })],
    }));
    await h.session.call("prompt", "big");
    const [result] = results(h);
    expect(text(result!)).toBe(`${"x".repeat(1024)}\n[output cut at 1 KB; print or return less]`);
    expect(result!.details).toMatchObject({ outputTruncated: true });
  });

  it("an abort of the session stops a running script", async () => {
    const h = (harness = await bootSession({
      faux: runsScript("while (true) {}") as never,
      entries: [codemodeEntry({ timeLimitMs: 60_000 })],
    }));
    const off = h.kernel.on(SESSION_EVENT, (e: SessionEvent) => {
      if (e.type === "tool_execution_start") void h.session.call("abort");
    });
    const started = Date.now();
    await h.session.call("prompt", "spin");
    off();
    expect(Date.now() - started).toBeLessThan(10_000);
    const [result] = results(h);
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "Error: the script was aborted" }] });
  });

  it("config limits which tools scripts may call", async () => {
    const h = (harness = await bootSession({
      faux: runsScript("return Object.keys(tools).join(',');") as never,
      tools: [
        { name: "alpha", description: "a", parameters: Type.Object({}), execute: async () => ({ content: [] }) },
        { name: "beta", description: "b", parameters: Type.Object({}), execute: async () => ({ content: [] }) },
        { name: "gamma", description: "c", parameters: Type.Object({}), execute: async () => ({ content: [] }) },
      ],
      entries: [codemodeEntry({ tools: ["alpha", "beta"], excludeTools: ["beta"] })],
    }));
    await h.session.call("prompt", "list");
    expect(text(results(h)[0]!)).toBe("alpha");
  });

  it("ALL_TOOLS in a session's script lists the tools it may call, and describeNamespace is there", async () => {
    const h = (harness = await bootSession({
      faux: runsScript(
        "return ALL_TOOLS.map((t) => t.name + ':' + t.description.includes('gamma')).join(',') + ' ' + typeof describeNamespace;",
      ) as never,
      tools: [
        { name: "alpha", description: "a", parameters: Type.Object({}), execute: async () => ({ content: [] }) },
        { name: "gamma", description: "c", parameters: Type.Object({}), execute: async () => ({ content: [] }) },
      ],
      entries: [codemodeEntry()],
    }));
    await h.session.call("prompt", "list");
    expect(text(results(h)[0]!)).toBe("alpha:false,gamma:true function");
  });
});
