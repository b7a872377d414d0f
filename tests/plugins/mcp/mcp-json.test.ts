/**
 * The MCP plugin reading `mcp.json` as pi 1.6 does, booted with a host environment: a server of
 * `<agentDir>/mcp.json` offers its tools and gets its expanded `env`; a project's `.pi/mcp.json` counts
 * only when the host trusts the project — an untrusted one's server never starts.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_EVENT, type SessionEvent } from "../../../contracts/agent-session.js";
import type { ProjectTrust } from "../../../contracts/host-environment.js";
import { Kernel } from "../../schema-kernel.js";
import { hostEnvironmentEntry } from "../../support/host-environment.js";
import { everythingServer, mcpEntry, mcpSource, notices } from "./mcp-harness.js";

const kernels: Kernel[] = [];
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
});

/** A user and a project folder with these mcp.json files, and the plugin booted on them. */
async function boot(user: object, project: string | undefined, trust: ProjectTrust) {
  const root = mkdtempSync(join(tmpdir(), "pi-mcp-json-"));
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(agentDir);
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  writeFileSync(join(agentDir, "mcp.json"), JSON.stringify({ mcpServers: user }));
  if (project !== undefined) writeFileSync(join(cwd, ".pi", "mcp.json"), project);
  const kernel = new Kernel();
  kernels.push(kernel);
  const events: SessionEvent[] = [];
  kernel.on(SESSION_EVENT, (e: SessionEvent) => void events.push(e));
  const result = await kernel.boot([hostEnvironmentEntry(cwd, agentDir, trust), mcpEntry({ startTimeoutMs: 20_000 })]);
  expect(result.errors).toEqual([]);
  return { kernel, cwd, root, events };
}

/** A stdio server that only leaves a marker file behind when it is started. */
function markerServer(marker: string): Record<string, unknown> {
  return {
    command: process.execPath,
    args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "started")`],
  };
}

describe("MCP servers from mcp.json", () => {
  it("a server of <agentDir>/mcp.json offers its tools, with ${VAR} and !command env values expanded", async () => {
    process.env.PI_MCP_JSON_TEST_SECRET = "s3cret";
    const { kernel, cwd } = await boot(
      {
        everything: everythingServer({
          env: { FROM_VAR: "x-${PI_MCP_JSON_TEST_SECRET}", FROM_COMMAND: "!echo from-command", LITERAL: "$$HOME" },
        }),
      },
      undefined,
      { trusted: false, source: "none-needed" },
    );
    const source = mcpSource(kernel);
    const names = (await source.listTools(cwd)).map((t) => t.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names).toContain("mcp__everything__get-env");
    const result = await source.executeTool("mcp__everything__get-env", "c1", {}, undefined, undefined, {} as never);
    const text = result.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    const env = JSON.parse(text) as Record<string, string>;
    expect(env.FROM_VAR).toBe("x-s3cret");
    expect(env.FROM_COMMAND).toBe("from-command");
    expect(env.LITERAL).toBe("$HOME");
    delete process.env.PI_MCP_JSON_TEST_SECRET;
  });

  it("an unset variable fails that server's start with one line naming the file and field; the others start", async () => {
    delete process.env.PI_MCP_JSON_TEST_UNSET;
    const { kernel, cwd, events } = await boot(
      { everything: everythingServer(), broken: everythingServer({ env: { TOKEN: "${PI_MCP_JSON_TEST_UNSET}" } }) },
      undefined,
      { trusted: false, source: "none-needed" },
    );
    const names = (await mcpSource(kernel).listTools(cwd)).map((t) => t.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names.some((n) => n.startsWith("mcp__broken__"))).toBe(false);
    const agentFile = join(cwd, "..", "agent", "mcp.json");
    expect(notices(events).map((n) => n.message)).toContain(
      `MCP server "broken" failed to start: ${agentFile}: env "TOKEN" uses $PI_MCP_JSON_TEST_UNSET, which is not set in the environment`,
    );
  });

  it("an untrusted project's .pi/mcp.json is not read: its server never starts", async () => {
    const root = mkdtempSync(join(tmpdir(), "pi-mcp-marker-"));
    const marker = join(root, "started");
    const project = JSON.stringify({ mcpServers: { evil: markerServer(marker), everything: markerServer(marker) } });
    const { kernel, cwd } = await boot({ everything: everythingServer() }, project, {
      trusted: false,
      source: "saved",
    });
    const source = mcpSource(kernel);
    const names = (await source.listTools(cwd)).map((t) => t.name);
    expect(names).toContain("mcp__everything__echo");
    expect((await source.servers(cwd)).map((s) => s.spec.name)).toEqual(["everything"]);
    expect(existsSync(marker)).toBe(false);
  });

  it("a trusted project's .pi/mcp.json adds its servers; a malformed one is one notice and the user's servers still load", async () => {
    const trusted = await boot(
      { everything: everythingServer() },
      JSON.stringify({ mcpServers: { project: everythingServer() } }),
      { trusted: true, source: "saved" },
    );
    const names = (await mcpSource(trusted.kernel).listTools(trusted.cwd)).map((t) => t.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names).toContain("mcp__project__echo");

    const broken = await boot({ everything: everythingServer() }, '{ "mcpServers": {', {
      trusted: true,
      source: "saved",
    });
    const source = mcpSource(broken.kernel);
    expect((await source.listTools(broken.cwd)).map((t) => t.name)).toContain("mcp__everything__echo");
    await source.listTools(broken.cwd);
    const warnings = notices(broken.events).filter((n) => n.message.includes(".pi/mcp.json"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message.startsWith(`MCP: ${join(broken.cwd, ".pi", "mcp.json")}: `)).toBe(true);
    expect(warnings[0]!.message).not.toContain("\n");
  });
});
