import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import type { SessionHarness } from "../agent-session/harness.js";
import { bootWithExtensions, fixture, notices } from "./ext-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

const results = (h: SessionHarness) =>
  h.session.call("messages").filter((m): m is ToolResultMessage => m.role === "toolResult");

describe("pi extension tools", () => {
  it("a registered tool is offered to the model, called through the loop, and its result is what execute returned", async () => {
    const h = (harness = await bootWithExtensions([fixture("greet-tool.ts")], {
      faux: { responses: [{ content: [fauxToolCall("greet", { name: "pi" }, "g1")] }, { content: "I greeted pi." }] },
    }));
    await h.session.call("prompt", "greet pi");

    const offered = h.faux.requests[0]!.context.tools!.find((t) => t.name === "greet")!;
    expect(offered.description).toBe("Greet someone by name");
    expect(JSON.parse(JSON.stringify(offered.parameters))).toEqual({
      type: "object",
      required: ["name"],
      properties: {
        name: { type: "string", description: "Name to greet" },
        style: { type: "string", enum: ["plain", "loud"] },
      },
    });
    const [result] = results(h);
    expect(result).toMatchObject({
      toolCallId: "g1",
      toolName: "greet",
      isError: false,
      content: [{ type: "text", text: "Hello, pi!" }],
    });
    expect(result!.details).toEqual({ toolCallId: "g1", cwd: h.cwd, aborted: false });
    // The model gets the result back in the next request, and the answer ends the run.
    expect(h.faux.requests[1]!.context.messages.at(-1)).toMatchObject({
      role: "toolResult",
      content: [{ type: "text", text: "Hello, pi!" }],
    });
    expect(h.session.call("lastAssistantText")).toBe("I greeted pi.");
    // Progress from onUpdate reaches the session's events.
    expect(
      h.events.some(
        (e) =>
          e.type === "tool_execution_update" && (e.partialResult.content[0] as { text: string }).text === "Working...",
      ),
    ).toBe(true);
    expect(notices(h.events)).toEqual([]);
  });

  it("arguments are validated against the tool's schema (StringEnum included) before execute runs; defineTool tools work too", async () => {
    const h = (harness = await bootWithExtensions([fixture("greet-tool.ts")], {
      faux: {
        responses: [
          {
            content: [
              fauxToolCall("greet", { name: "pi", style: "whisper" }, "bad"),
              fauxToolCall("greet", { name: "pi", style: "loud" }, "loud"),
              fauxToolCall("hello", { name: "docs" }, "h1"),
            ],
          },
          { content: "done" },
        ],
      },
    }));
    await h.session.call("prompt", "greet");
    const byId = new Map(results(h).map((r) => [r.toolCallId, r]));
    expect(byId.get("bad")).toMatchObject({ isError: true });
    expect((byId.get("bad")!.content[0] as { text: string }).text).toMatch(/^Invalid arguments for "greet": \/style/);
    expect(byId.get("loud")).toMatchObject({ isError: false, content: [{ type: "text", text: "HELLO, PI!" }] });
    expect(byId.get("h1")).toMatchObject({
      isError: false,
      content: [{ type: "text", text: "Hello, docs!" }],
      details: { greeted: "docs" },
    });
  });

  it("a tool that throws gives an error result with its message, as pi's docs say", async () => {
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "pi-ext-throw-"));
    const file = join(dir, "throws.ts");
    writeFileSync(
      file,
      `import { Type } from "typebox";
export default function (pi) {
  pi.registerTool({ name: "check", label: "Check", description: "checks", parameters: Type.Object({ input: Type.String() }),
    async execute(_id, params) { if (params.input !== "ok") throw new Error(\`Invalid input: \${params.input}\`); return { content: [{ type: "text", text: "OK" }], details: {}, isError: true }; } });
}
`,
    );
    const h = (harness = await bootWithExtensions([file], {
      faux: {
        responses: [
          { content: [fauxToolCall("check", { input: "nope" }, "c1"), fauxToolCall("check", { input: "ok" }, "c2")] },
          { content: "checked" },
        ],
      },
    }));
    await h.session.call("prompt", "check");
    const byId = new Map(results(h).map((r) => [r.toolCallId, r]));
    expect(byId.get("c1")).toMatchObject({ isError: true, content: [{ type: "text", text: "Invalid input: nope" }] });
    // "Returning a value never sets the error flag regardless of what properties you include."
    expect(byId.get("c2")).toMatchObject({ isError: false, content: [{ type: "text", text: "OK" }] });
  });
});
