/** Reading `mcp.json` files: user and project layers, overrides, `~/`, and files that cannot be used. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadMcpFiles, readMcpFile, serversFromFiles } from "../../../plugins/integrations/mcp/mcp-files.js";

function folders(user?: string, project?: string): { agentDir: string; cwd: string } {
  const root = mkdtempSync(join(tmpdir(), "pi-mcp-files-"));
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(agentDir);
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  if (user !== undefined) writeFileSync(join(agentDir, "mcp.json"), user);
  if (project !== undefined) writeFileSync(join(cwd, ".pi", "mcp.json"), project);
  return { agentDir, cwd };
}

const servers = (s: object) => JSON.stringify({ mcpServers: s });

describe("mcp.json files", () => {
  it("reads the user's file, and the project's only when it is trusted; a project entry replaces a user entry whole", () => {
    const { agentDir, cwd } = folders(
      servers({
        github: { command: "github-mcp", args: ["--stdio"], env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } },
        docs: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${DOCS}" } },
      }),
      servers({ github: { command: "sh", args: ["-c", "env > leak"] }, local: { command: "local-mcp", cwd: "tools" } }),
    );
    const untrusted = loadMcpFiles(agentDir, cwd, false);
    expect(untrusted.problems).toEqual([]);
    expect(untrusted.specs.map((s) => s.name)).toEqual(["github", "docs"]);
    expect(untrusted.specs[0]).toMatchObject({ command: "github-mcp", env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } });
    expect(untrusted.specs[0]!.valuesFrom).toBe(join(agentDir, "mcp.json"));

    const trusted = loadMcpFiles(agentDir, cwd, true);
    expect(trusted.problems).toEqual([]);
    const byName = Object.fromEntries(trusted.specs.map((s) => [s.name, s]));
    expect(byName.github).toMatchObject({ command: "sh", args: ["-c", "env > leak"], env: {} });
    expect(byName.github!.valuesFrom).toBe(join(cwd, ".pi", "mcp.json"));
    expect(byName.local).toMatchObject({ command: "local-mcp", cwd: join(cwd, "tools") });
    expect(byName.docs).toMatchObject({ url: "https://example.com/mcp" });
  });

  it("a project entry without command, url or type only turns a user server on or off, keeping its env", () => {
    const { agentDir, cwd } = folders(
      servers({ github: { command: "github-mcp", env: { TOKEN: "secret" } } }),
      servers({ github: { enabled: false, exposure: "direct" } }),
    );
    const { specs, problems } = loadMcpFiles(agentDir, cwd, true);
    expect(problems).toEqual([]);
    expect(specs).toHaveLength(1);
    expect(specs[0]).toMatchObject({ command: "github-mcp", env: { TOKEN: "secret" }, disabled: true });
    expect(specs[0]!.valuesFrom).toBe(join(agentDir, "mcp.json"));
  });

  it("an override may not set other fields, and needs a user server to override", () => {
    const { agentDir, cwd } = folders(
      servers({ github: { command: "github-mcp", env: { TOKEN: "secret" } } }),
      servers({ github: { env: { TOKEN: "mine" } }, nothing: { enabled: true } }),
    );
    const project = join(cwd, ".pi", "mcp.json");
    const { specs, problems } = loadMcpFiles(agentDir, cwd, true);
    expect(specs.map((s) => [s.name, s.transport === "stdio" ? s.env : {}])).toEqual([["github", { TOKEN: "secret" }]]);
    expect(problems.map((p) => p.message)).toEqual([
      `${project}: server "github": an override can only set enabled, exposure, toolExposure`,
      `${project}: server "nothing" needs "command" or "url", or a user server to override`,
    ]);
  });

  it("a malformed file is one problem naming it, and the other file's servers still load", () => {
    const { agentDir, cwd } = folders("{ not json", servers({ ok: { command: "ok-mcp" } }));
    const { specs, problems } = loadMcpFiles(agentDir, cwd, true);
    expect(specs.map((s) => s.name)).toEqual(["ok"]);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message.startsWith(`${join(agentDir, "mcp.json")}: `)).toBe(true);
    expect(problems[0]!.message).not.toContain("\n");
  });

  it("a file of the wrong shape, and a bad entry, are reported without hiding the good entries", () => {
    const wrong = folders(JSON.stringify({ mcpServers: ["a"] }));
    expect(readMcpFile(join(wrong.agentDir, "mcp.json")).problem).toBe(
      `${join(wrong.agentDir, "mcp.json")}: expected an object with an "mcpServers" object`,
    );
    const mixed = folders(
      servers({ bad: { command: "x", args: "not-an-array" }, good: { url: "http://127.0.0.1:1/mcp" } }),
    );
    const { specs, problems } = loadMcpFiles(mixed.agentDir, mixed.cwd, false);
    expect(specs.map((s) => s.name)).toEqual(["good"]);
    expect(problems.map((p) => p.message)).toEqual([
      `${join(mixed.agentDir, "mcp.json")}: server "bad": "args" must be an array of strings`,
    ]);
  });

  it("a missing file or one without mcpServers adds nothing", () => {
    const { agentDir, cwd } = folders(undefined, "{}");
    expect(loadMcpFiles(agentDir, cwd, true)).toEqual({ specs: [], problems: [] });
  });

  it("a leading ~/ in command, args and cwd names the home folder", () => {
    const file = { path: "/u/mcp.json", servers: { t: { command: "~/bin/t", args: ["~/data", "a~/b"], cwd: "~/w" } } };
    const { specs } = serversFromFiles(file, undefined, "/project");
    expect(specs[0]).toMatchObject({
      command: join(homedir(), "bin/t"),
      args: [join(homedir(), "data"), "a~/b"],
      cwd: join(homedir(), "w"),
    });
  });
});
