import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { testTool, type SessionHarness } from "../agent-session/harness.js";
import { bootWithExtensions, fixture, notices } from "./ext-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

const results = (h: SessionHarness) =>
  h.session.call("messages").filter((m): m is ToolResultMessage => m.role === "toolResult");

describe("tool_call and tool_result handlers", () => {
  it("tool_call blocks a call with its reason; the tool never runs and the model reads the reason as the call's error", async () => {
    const ran: string[] = [];
    const h = (harness = await bootWithExtensions([fixture("tool-gate.ts")], {
      tools: [testTool("bash", async (args) => (ran.push(args.command), `ran ${args.command}`))],
      faux: {
        responses: [{ content: [fauxToolCall("bash", { command: "rm -rf /" }, "b1")] }, { content: "ok, I will not" }],
      },
    }));
    await h.session.call("prompt", "clean up");
    expect(ran).toEqual([]);
    expect(results(h)).toEqual([
      expect.objectContaining({
        toolCallId: "b1",
        isError: true,
        content: [{ type: "text", text: "Dangerous command" }],
      }),
    ]);
    expect(h.faux.requests[1]!.context.messages.at(-1)).toMatchObject({
      role: "toolResult",
      isError: true,
      content: [{ type: "text", text: "Dangerous command" }],
    });
    expect(notices(h.events)).toEqual([]);
  });

  it("tool_call mutates event.input in place and the tool runs with it; tool_result patches the result", async () => {
    const ran: string[] = [];
    const h = (harness = await bootWithExtensions([fixture("tool-gate.ts")], {
      tools: [testTool("bash", async (args) => (ran.push(args.command), "listed"))],
      faux: { responses: [{ content: [fauxToolCall("bash", { command: "ls" }, "b2")] }, { content: "done" }] },
    }));
    await h.session.call("prompt", "list");
    expect(ran).toEqual(["source ~/.profile\nls"]);
    expect(results(h)[0]!.content).toEqual([
      { type: "text", text: "listed" },
      { type: "text", text: "(checked by tool-gate)" },
    ]);
  });

  it("a throwing tool_call handler blocks the call (pi's fail-safe) and is reported", async () => {
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const file = join(mkdtempSync(join(tmpdir(), "pi-ext-gate-")), "throws.ts");
    writeFileSync(
      file,
      `export default function (pi) { pi.on("tool_call", async () => { throw new Error("gate crashed"); }); }\n`,
    );
    const ran: string[] = [];
    const h = (harness = await bootWithExtensions([file], {
      tools: [testTool("bash", async (args) => (ran.push(args.command), "x"))],
      faux: { responses: [{ content: [fauxToolCall("bash", { command: "ls" }, "b3")] }, { content: "done" }] },
    }));
    await h.session.call("prompt", "list");
    expect(ran).toEqual([]);
    expect(results(h)[0]).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "Extension failed, blocking execution: gate crashed" }],
    });
    expect(notices(h.events)).toEqual([`extension ${file}: tool_call: gate crashed`]);
  });
});
