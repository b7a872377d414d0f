/** `--no-mcp` as the host environment carries it: configured servers never start, and `/mcp` is not ours. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hostEnvironmentEntry } from "../../support/host-environment.js";
import { bootSession, type SessionHarness } from "../agent-session/harness.js";
import { everythingServer, mcpEntry, mcpSource, serverPid } from "./mcp-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

async function boot(noMcp: boolean): Promise<SessionHarness> {
  const root = mkdtempSync(join(tmpdir(), "pi-no-mcp-"));
  harness = await bootSession({
    faux: { responses: [{ content: "first" }, { content: "second" }] },
    entries: [
      hostEnvironmentEntry(root, join(root, "agent"), undefined, noMcp ? { noMcp: true } : {}),
      mcpEntry({ servers: { everything: everythingServer() }, readMcpFiles: false, readSettings: false }),
    ],
  });
  return harness;
}

describe("--no-mcp", () => {
  it("starts no configured server and offers no MCP tool; /mcp reaches the model as a message", async () => {
    const h = await boot(true);
    await h.session.call("prompt", "hello");
    const tools = h.faux.requests.at(-1)!.context.tools?.map((t) => t.name) ?? [];
    expect(tools.some((n) => n.startsWith("mcp__"))).toBe(false);
    expect(await mcpSource(h.kernel).servers()).toEqual([]);
    expect(await serverPid(h.kernel, "everything")).toBeUndefined();
    await h.session.call("prompt", "/mcp");
    expect(h.faux.requests).toHaveLength(2);
  });

  it("without the flag the same configuration starts the server", async () => {
    const h = await boot(false);
    await h.session.call("prompt", "hello");
    const tools = h.faux.requests.at(-1)!.context.tools?.map((t) => t.name) ?? [];
    expect(tools).toContain("mcp__everything__echo");
    expect(await serverPid(h.kernel, "everything")).toBeGreaterThan(0);
  });
});
