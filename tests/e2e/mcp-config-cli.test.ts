/**
 * `pi mcp add | remove | list` of the built `pi`, as pi 1.6.0 has them: add writes the user's
 * `<agentDir>/mcp.json` (or the project's `.pi/mcp.json` with `-l`) keeping other servers, unknown
 * fields and the indentation; bad input is one line and exit 2 and leaves the file as it was; `list`
 * connects and prints what pi 1.6.0 prints for the same file.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PI16_CLI, PI16_NODE, pi16Missing } from "../compat/pi16.js";
import { McpOAuthServers } from "../support/mcp-oauth-servers.js";
import { PI_BIN, runPi } from "./run-pi.js";

const built = existsSync(PI_BIN);
if (!built) console.log(`[skip] pi mcp add/remove/list: ${PI_BIN} is missing; run "npm run build"`);
const LISTER = fileURLToPath(new URL("./fixtures/mcp-list-server.mjs", import.meta.url));

/** A fresh home with its agent folder and a project folder. */
function home(): { env: Record<string, string>; agentDir: string; project: string; userFile: string } {
  const root = mkdtempSync(join(tmpdir(), "pi-mcp-cli-"));
  const agentDir = join(root, ".pi", "agent");
  const project = join(root, "project");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(project);
  return {
    env: { HOME: root, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" },
    agentDir,
    project,
    userFile: join(agentDir, "mcp.json"),
  };
}

function json(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}

describe.skipIf(!built)("pi mcp add / remove", () => {
  it("adds stdio and HTTP servers to the user's mcp.json, keeping what else it holds", async () => {
    const h = home();
    const before = `{\n    "note": "kept",\n    "mcpServers": {\n        "other": { "command": "x", "extra": 1 }\n    }\n}\n`;
    writeFileSync(h.userFile, before);
    const add = await runPi(
      ["mcp", "add", "files", "--env", "API_KEY=${TOOLS_KEY}", "--", "npx", "-y", "srv", "--root", "."],
      { cwd: h.project, env: h.env },
    );
    expect(add.stderr).toBe("");
    expect(add.code).toBe(0);
    expect(add.stdout).toBe(`Added global MCP server "files" in ${h.userFile}.\nCheck it with: pi mcp list\n`);
    const remote = await runPi(
      ["mcp", "add", "docs", "--url", "https://example.com/mcp", "--bearer-token-env-var", "DOCS_TOKEN"],
      { cwd: h.project, env: h.env },
    );
    expect(remote.code).toBe(0);
    const text = readFileSync(h.userFile, "utf8");
    expect(text).toContain('\n    "note": "kept"');
    expect(JSON.parse(text)).toEqual({
      note: "kept",
      mcpServers: {
        other: { command: "x", extra: 1 },
        files: { command: "npx", args: ["-y", "srv", "--root", "."], env: { API_KEY: "${TOOLS_KEY}" } },
        docs: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${DOCS_TOKEN}" } },
      },
    });
    // No temporary file is left beside it.
    expect(readdirSync(h.agentDir).filter((f) => f.includes("mcp.json"))).toEqual(["mcp.json"]);

    const replaced = await runPi(["mcp", "add", "files", "--exposure", "direct", "--", "node", "s.js"], {
      cwd: h.project,
      env: h.env,
    });
    expect(replaced.stdout).toContain(`Replaced global MCP server "files" in ${h.userFile}.`);
    expect((json(h.userFile).mcpServers as Record<string, unknown>).files).toEqual({
      command: "node",
      args: ["s.js"],
      exposure: "direct",
    });

    const removed = await runPi(["mcp", "remove", "docs"], { cwd: h.project, env: h.env });
    expect(removed.code).toBe(0);
    expect(removed.stdout).toBe(`Removed global MCP server "docs" from ${h.userFile}.\n`);
    expect(Object.keys(json(h.userFile).mcpServers as object)).toEqual(["other", "files"]);
    const again = await runPi(["mcp", "remove", "docs"], { cwd: h.project, env: h.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`Error: no global MCP server named "docs" in ${h.userFile}.\n`);
  });

  it("-l writes the project's .pi/mcp.json, and remove points at the other file", async () => {
    const h = home();
    const add = await runPi(["mcp", "add", "-l", "tools", "--", "uvx", "tools-mcp"], { cwd: h.project, env: h.env });
    expect(add.code).toBe(0);
    const projectFile = join(h.project, ".pi", "mcp.json");
    expect(json(projectFile)).toEqual({ mcpServers: { tools: { command: "uvx", args: ["tools-mcp"] } } });
    expect(existsSync(h.userFile)).toBe(false);
    const wrong = await runPi(["mcp", "remove", "tools"], { cwd: h.project, env: h.env });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`It is defined in ${projectFile}; use --local.`);
    const right = await runPi(["mcp", "remove", "--local", "tools"], { cwd: h.project, env: h.env });
    expect(right.code).toBe(0);
    expect(json(projectFile)).toEqual({ mcpServers: {} });
  });

  it("bad input is one line and exit 2, and the file stays as it was", async () => {
    const h = home();
    const before = `{"mcpServers":{"keep":{"command":"x"}}}`;
    writeFileSync(h.userFile, before);
    const cases: Array<[string[], RegExp]> = [
      [["mcp", "add", "bad name", "--", "x"], /letters, digits/],
      [["mcp", "add", "s"], /Usage: pi mcp add/],
      [["mcp", "add", "s", "--url", "https://e.example/mcp", "--", "x"], /Usage: pi mcp add/],
      [["mcp", "add", "s", "--url", "https://e.example/mcp", "--env", "A=1"], /--env only applies to stdio/],
      [["mcp", "add", "s", "--header", "A=1", "--", "x"], /--header only applies to HTTP/],
      [["mcp", "add", "s", "--env", "NOEQUALS", "--", "x"], /--env expects KEY=VALUE/],
      [["mcp", "add", "s", "--exposure", "sometimes", "--", "x"], /exposure/],
      [["mcp", "add", "s", "--bogus", "--", "x"], /Unknown option --bogus/],
      [["mcp", "remove"], /Usage: pi mcp remove/],
      [["mcp", "list", "extra"], /Usage: pi mcp list/],
      [["mcp", "frobnicate"], /unknown mcp command/],
    ];
    for (const [args, message] of cases) {
      const run = await runPi(args, { cwd: h.project, env: h.env });
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(readFileSync(h.userFile, "utf8")).toBe(before);

    writeFileSync(h.userFile, "{ not json");
    const broken = await runPi(["mcp", "add", "s", "--", "x"], { cwd: h.project, env: h.env });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/could not update .*mcp\.json: it is not valid JSON/);
    expect(readFileSync(h.userFile, "utf8")).toBe("{ not json");
  });
});

/** Runs pi 1.6.0's `pi` with Node 22. */
function runPi16(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PI16_NODE, [PI16_CLI, ...args], { cwd, env: { ...process.env, ...env }, stdio: "pipe" });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
    child.stdin.end();
  });
}

describe.skipIf(!built)("pi mcp list", () => {
  function listed(): ReturnType<typeof home> {
    const h = home();
    writeFileSync(
      h.userFile,
      JSON.stringify({
        mcpServers: {
          lister: { command: process.execPath, args: [LISTER], toolExposure: { beta: "direct" } },
          off: { command: process.execPath, args: [LISTER], enabled: false },
        },
      }),
    );
    return h;
  }

  it("connects every enabled server and prints state and tools; exits 1 when one fails", async () => {
    const h = listed();
    const run = await runPi(["mcp", "list"], { cwd: h.project, env: h.env });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      [
        "lister: connected, 2 tools (codemode, global)",
        `  ${process.execPath} ${LISTER}`,
        "  tools: alpha, beta [direct]",
        "off: disabled (codemode, global)",
        `  ${process.execPath} ${LISTER}`,
        "",
      ].join("\n"),
    );
    expect(run.code).toBe(0);
    const asJson = await runPi(["mcp", "list", "--json"], { cwd: h.project, env: h.env });
    expect(JSON.parse(asJson.stdout).servers.map((s: { name: string; state: string }) => [s.name, s.state])).toEqual([
      ["lister", "connected"],
      ["off", "disabled"],
    ]);

    const config = json(h.userFile) as { mcpServers: Record<string, unknown> };
    config.mcpServers.broken = { command: join(h.project, "no-such-server") };
    writeFileSync(h.userFile, JSON.stringify(config));
    const failing = await runPi(["mcp", "list"], { cwd: h.project, env: h.env });
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain("broken: failed (codemode, global)");
  });

  it.skipIf(pi16Missing !== undefined)("prints what pi 1.6.0 prints for the same mcp.json", async () => {
    const h = listed();
    const [host, pi16] = [
      await runPi(["mcp", "list"], { cwd: h.project, env: h.env }),
      await runPi16(["mcp", "list"], h.project, h.env),
    ];
    expect(host.stdout).toBe(pi16.stdout);
    expect(host.code).toBe(pi16.code);
  });

  it("a remote server without a sign-in needs one, and an untrusted project's file is named as ignored", async () => {
    const oauth = await new McpOAuthServers().start();
    try {
      const h = home();
      writeFileSync(h.userFile, JSON.stringify({ mcpServers: { remote: { url: oauth.mcpUrl } } }));
      mkdirSync(join(h.project, ".pi"));
      const projectFile = join(h.project, ".pi", "mcp.json");
      writeFileSync(projectFile, JSON.stringify({ mcpServers: { local: { command: "x" } } }));
      const run = await runPi(["mcp", "list"], { cwd: h.project, env: h.env });
      expect(run.stdout).toBe(
        [
          "remote: needs sign-in (codemode, global)",
          `  ${oauth.mcpUrl}`,
          "  sign in with: pi mcp login remote",
          `${projectFile} is ignored because the project is not trusted. Start pi in the project to trust it.`,
          "",
        ].join("\n"),
      );
      expect(run.code).toBe(1);
      if (pi16Missing === undefined) {
        const pi16 = await runPi16(["mcp", "list"], h.project, h.env);
        expect(run.stdout).toBe(pi16.stdout);
      }
    } finally {
      await oauth.close();
    }
  });
});
