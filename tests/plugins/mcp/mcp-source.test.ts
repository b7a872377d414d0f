/** The tool source on its own, with a stand-in settings store. */
import { describe, expect, it } from "vitest";
import { McpToolSource, type McpSourceHost } from "../../../plugins/integrations/mcp/mcp-source.js";

function host(overrides: Partial<McpSourceHost>): McpSourceHost & { notices: string[] } {
  const notices: string[] = [];
  return {
    configServers: undefined,
    readSettings: true,
    configDisabled: [],
    exposeResources: true,
    startTimeoutMs: 1_000,
    callTimeoutMs: 1_000,
    clientVersion: "test",
    settings: undefined,
    off: () => false,
    mcpFiles: async () => ({ specs: [], problems: [] }),
    toggles: () => ({}),
    spawn: () => {
      throw new Error("no server should start in this test");
    },
    notice: (_level, message) => notices.push(message),
    defaultExposure: "direct",
    loadedTools: () => new Set(),
    notices,
    ...overrides,
  };
}

describe("McpToolSource", () => {
  it("unreadable settings are reported once and leave the plugin's own servers listed", async () => {
    const settings = {
      available: true,
      api: { get: async () => Promise.reject(new Error("/home/u/.pi/agent/settings.json: not valid JSON")) },
    };
    const h = host({
      settings: settings as never,
      configServers: { off: { command: "never-started", disabled: true } },
    });
    const source = new McpToolSource(h);
    expect(await source.listTools("/project")).toEqual([]);
    expect(await source.listTools("/project")).toEqual([]);
    expect(h.notices).toEqual([
      'MCP: settings could not be read, so their "mcpServers" are left out: /home/u/.pi/agent/settings.json: not valid JSON',
    ]);
    expect((await source.servers("/project")).map((s) => [s.spec.name, s.enabled])).toEqual([["off", false]]);
  });

  it("calling a tool no server offers is an error naming the tool", async () => {
    const source = new McpToolSource(host({}));
    await expect(
      source.executeTool("mcp__gone__tool", "id", {}, undefined, undefined, { cwd: "/", withFileLock: (_p, w) => w() }),
    ).rejects.toThrow(
      '"mcp__gone__tool" is not a tool of any running MCP server; the server may have been disabled or reconfigured',
    );
  });
});
