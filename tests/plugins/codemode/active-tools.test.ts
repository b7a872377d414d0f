/**
 * A script reaches only the tools the session offers: under `--tools codemode,read` (the session's
 * allow-list) a `bash` tool that is installed but not active is neither described nor callable.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import codemodePlugin from "../../../plugins/integrations/codemode/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, testTool, type SessionHarness } from "../agent-session/harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("codemode and the session's active tool set", () => {
  it("under tools [codemode, read] a script cannot see or call bash", async () => {
    let bashRan = false;
    const code = `
      const names = Object.keys(tools).join(",");
      let reached;
      try { await tools.bash({ command: "echo pwned" }); reached = "bash ran"; } catch (e) { reached = "no bash: " + e.message; }
      return names + " | " + reached + " | " + (await tools.read({}));
    `;
    const h = (harness = await bootSession({
      faux: { responses: [{ content: [fauxToolCall("codemode", { code }, "cm1")] }, { content: "done" }] } as never,
      tools: [testTool("read", async () => "read ok"), testTool("bash", async () => ((bashRan = true), "pwned"))],
      config: { tools: ["codemode", "read"] },
      entries: [
        { id: "codemode", source: { kind: "inline", label: "codemode", definition: codemodePlugin }, config: {} },
      ],
    }));
    await h.session.call("prompt", "try bash");

    const offered = h.faux.requests[0]!.context.tools!.map((t) => t.name);
    expect(offered).toEqual(["read", "codemode"]);
    const description = h.faux.requests[0]!.context.tools!.find((t) => t.name === "codemode")!.description;
    expect(description).toMatch(/^\s+read\(/m);
    expect(description).not.toMatch(/^\s+bash\(/m);

    const result = h.session.call("messages").find((m): m is ToolResultMessage => m.role === "toolResult")!;
    const text = result.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    expect(text).toBe("read | no bash: not a function | read ok");
    expect(bashRan).toBe(false);
  });
});
