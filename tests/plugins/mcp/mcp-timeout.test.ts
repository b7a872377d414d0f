/**
 * A tool call the server never answers ends at the configured timeout (pi 1.6's per-server `timeout`,
 * in seconds, default 60 s) as a tool error that names the timeout and the setting to raise.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import mcpPlugin from "../../../plugins/integrations/mcp/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, type SessionHarness } from "../agent-session/harness.js";
import { mcpEntry } from "./mcp-harness.js";

/** A stdio MCP server that answers `initialize` and `tools/list` but never `tools/call`. */
const NEVER_ANSWERS = `
const rl = require("node:readline").createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
rl.on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize")
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion,
      capabilities: { tools: {} }, serverInfo: { name: "stuck", version: "1.0.0" } } });
  else if (m.method === "tools/list")
    send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "wait", description: "Never returns",
      inputSchema: { type: "object", properties: {} } }] } });
});
`;

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("MCP tool-call timeout", () => {
  it("defaults to pi 1.6's 60 seconds", () => {
    const schema = mcpPlugin.config as unknown as { properties: { callTimeoutMs: { default: number } } };
    expect(schema.properties.callTimeoutMs.default).toBe(60_000);
  });

  it("a call the server never answers ends at the server's `timeout` as an error naming it", async () => {
    const h = (harness = await bootSession({
      faux: { responses: [{ content: [fauxToolCall("mcp__stuck__wait", {}, "w1")] }, { content: "done" }] },
      entries: [
        mcpEntry({ servers: { stuck: { command: process.execPath, args: ["-e", NEVER_ANSWERS], timeout: 0.2 } } }),
      ],
    }));
    await h.session.call("prompt", "wait");
    const results = h.session.call("messages").filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ toolCallId: "w1", isError: true });
    const text = results[0]!.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
    expect(text).toContain("timed out after 0.2 s");
    expect(text).toContain('"timeout"');
    expect(text).toContain("mcp.json");
  });
});
