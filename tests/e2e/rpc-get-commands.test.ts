/**
 * RPC `get_commands` through the built CLI: an extension's registered command, `/mcp`, the plugins' slash
 * commands (`/llama`, `/login`) and a prompt template are listed in pi 1.6.0's shape (name, description, source, sourceInfo); and, when pi 1.6.0 is
 * installed, the same extension and template under pi 1.6.0 give the same entries field by field.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { PI16_CLI, PI16_NODE, pi16Missing } from "../compat/pi16.js";
import { agentHome, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";

if (pi16Missing !== undefined) console.log(`[skip] get_commands against pi 1.6.0: ${pi16Missing}`);

const EXTENSION = `
export default function (pi) {
  pi.registerCommand("greet", { description: "Say hello", handler: async () => {} });
  pi.registerCommand("quiet", { handler: async () => {} });
}`;

let user: AgentHome;
beforeEach(() => {
  user = agentHome();
  user.useMockServer("http://127.0.0.1:9/v1");
  writeFileSync(join(user.project, "cmd.ts"), EXTENSION);
  mkdirSync(join(user.agent, "prompts"), { recursive: true });
  writeFileSync(join(user.agent, "prompts", "review.md"), "---\ndescription: Review the code\n---\nReview $1\n");
});

/** Runs `node cli --mode rpc -e cmd.ts` and returns its `get_commands` answer. */
function getCommands(node: string, cli: string): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [cli, "--mode", "rpc", "--model", "mock/mock-1", "--no-session", "-e", "cmd.ts"], {
      cwd: user.project,
      env: { ...process.env, ...user.env, PI_OFFLINE: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no get_commands answer; stdout: ${stdout}\nstderr: ${stderr}`));
    }, 60_000);
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      for (const line of stdout.split("\n")) {
        if (!line.includes('"get_commands"')) continue;
        const record = JSON.parse(line);
        if (record.type !== "response") continue;
        clearTimeout(timer);
        child.stdin.end();
        resolve(record.data.commands);
        return;
      }
    });
    child.on("error", reject);
    child.stdin.write(`${JSON.stringify({ id: "c1", type: "get_commands" })}\n`);
  });
}

describe("RPC get_commands (built CLI)", () => {
  it("lists the extension's commands, /mcp and the template in pi's shape", async () => {
    const commands = await getCommands(process.execPath, PI_BIN);
    const byName = new Map(commands.map((c) => [c.name, c]));
    const extensionInfo = {
      path: join(user.project, "cmd.ts"),
      source: "cli",
      scope: "temporary",
      origin: "top-level",
    };
    expect(byName.get("greet")).toEqual({
      name: "greet",
      description: "Say hello",
      source: "extension",
      sourceInfo: expect.objectContaining(extensionInfo),
    });
    expect(byName.get("quiet")).toEqual({
      name: "quiet",
      source: "extension",
      sourceInfo: expect.objectContaining(extensionInfo),
    });
    expect(byName.get("mcp")).toMatchObject({
      description: "Manage MCP servers: sign in, reconnect, enable or disable, and change exposure",
      source: "extension",
      sourceInfo: { path: "builtin:mcp", source: "builtin" },
    });
    // Plugins' slash commands (the command contract): /llama as pi's built-in llama.cpp extension lists
    // it, /login of the account-login plugin as its plugin's.
    expect(byName.get("llama")).toEqual({
      name: "llama",
      description: "Manage llama.cpp router models",
      source: "extension",
      sourceInfo: { path: "builtin:llama.cpp", source: "builtin", scope: "temporary", origin: "top-level" },
    });
    expect(byName.get("login")).toMatchObject({
      source: "extension",
      sourceInfo: { path: "plugin:account-login", source: "plugin", scope: "temporary", origin: "top-level" },
    });
    expect(commands.filter((c) => c.name === "llama")).toHaveLength(1);
    expect(byName.get("review")).toEqual({
      name: "review",
      description: "Review the code",
      source: "prompt",
      sourceInfo: {
        path: join(user.agent, "prompts", "review.md"),
        source: "auto",
        scope: "user",
        origin: "top-level",
        baseDir: user.agent,
      },
    });
  });

  it.skipIf(pi16Missing !== undefined)(
    "gives the same entries as pi 1.6.0 for the extension's commands, /mcp and the template",
    async () => {
      const [ours, theirs] = await Promise.all([
        getCommands(process.execPath, PI_BIN),
        getCommands(PI16_NODE, PI16_CLI),
      ]);
      for (const name of ["greet", "quiet", "mcp", "llama", "review"]) {
        const a = ours.find((c) => c.name === name);
        const b = theirs.find((c) => c.name === name);
        expect({ name, entry: a }).toEqual({ name, entry: b });
      }
    },
    120_000,
  );
});
