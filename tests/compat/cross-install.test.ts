/**
 * One agent folder, two programs: a package pi 1.6.0 installed (its own `pi install`, run with the Node 22
 * it needs, HOME and PI_CODING_AGENT_DIR in a temp folder, npm pointed at the vendored registry on
 * 127.0.0.1) is found by pi-host — listed, and its extension's command runs — and a package pi-host
 * installed is found by pi 1.6.0's `pi list` and loads there. Skipped with the reason when pi 1.6.0 is
 * not installed in tests/compat/pi16.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentHome, completionsText, type AgentHome } from "../e2e/agent-home.js";
import { runPi, type PiRun } from "../e2e/run-pi.js";
import type { TestRegistry } from "../fixtures/packages/registry.js";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { PI16_CLI, PI16_NODE, pi16Missing } from "./pi16.js";
import { startVendoredRegistry } from "./support/vendored-registry.js";

const SLOW = 240_000;
if (pi16Missing) console.log(`skipping the cross-install tests: ${pi16Missing}`);

let registry: TestRegistry;
let llm: MockLlmServer;

beforeAll(async () => {
  if (pi16Missing) return;
  [registry, llm] = await Promise.all([startVendoredRegistry(), new MockLlmServer().start()]);
}, SLOW);
afterAll(async () => {
  await Promise.all([registry?.close(), llm?.close()]);
});

/** Runs pi 1.6.0 with Node 22 as `user`, npm pointed at the vendored registry. */
function pi16(user: AgentHome, args: string[]): Promise<PiRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(PI16_NODE, [PI16_CLI, ...args], {
      cwd: user.project,
      env: { ...registry.env, ...user.env, PI_OFFLINE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** pi 1.6.0's RPC `get_commands` answer for `user`'s agent folder. */
function pi16Commands(user: AgentHome): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(PI16_NODE, [PI16_CLI, "--mode", "rpc", "--no-session"], {
      cwd: user.project,
      env: { ...registry.env, ...user.env, PI_OFFLINE: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`pi 1.6.0 gave no get_commands answer; stdout: ${stdout}\nstderr: ${stderr}`));
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
      }
    });
    child.on("error", reject);
    child.stdin.write(`${JSON.stringify({ id: "c1", type: "get_commands" })}\n`);
  });
}

/**
 * Runs pi-host as `user` with npm pointed at a port nothing listens on: it must use what is installed,
 * never install the package again itself.
 */
function piHost(user: AgentHome, args: string[], registryEnv = registry.envFor("http://127.0.0.1:9/")): Promise<PiRun> {
  return runPi(args, { cwd: user.project, env: { ...registryEnv, ...user.env } });
}

describe.skipIf(pi16Missing !== undefined)("packages installed by one program are found by the other", () => {
  it(
    "pi 1.6.0 installs npm:pi-simplify@0.2.2; pi-host lists it and its /simplify command runs",
    async () => {
      const user = agentHome();
      user.useMockServer(`${llm.url}/v1`);
      const install = await pi16(user, ["install", "npm:pi-simplify@0.2.2"]);
      expect(install.code, install.stderr + install.stdout).toBe(0);
      const list = await piHost(user, ["list"]);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toContain("npm:pi-simplify@0.2.2");
      expect(list.stdout).toContain(join(user.agent, "npm", "node_modules", "pi-simplify"));
      llm.requests.length = 0;
      llm.enqueue({ sse: completionsText("reviewed") });
      const run = await piHost(user, ["-p", "--model", "mock/mock-1", "/simplify lib/x.ts"]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe("reviewed\n");
      expect(JSON.stringify(llm.requests[0]!.body.messages)).toContain("lib/x.ts");
    },
    SLOW,
  );

  it(
    "pi-host installs npm:pi-aliases@1.0.7; pi 1.6.0 lists it and loads its commands",
    async () => {
      const user = agentHome();
      const install = await piHost(user, ["install", "npm:pi-aliases@1.0.7"], registry.env);
      expect(install.code, install.stderr).toBe(0);
      const list = await pi16(user, ["list"]);
      expect(list.code, list.stderr + list.stdout).toBe(0);
      expect(list.stdout).toContain("npm:pi-aliases@1.0.7");
      // pi 1.6.0 loads it from where pi-host put it (offline: a missing package would only warn).
      const commands = await pi16Commands(user);
      const aliases = commands.filter((c) => c.name === "clear" || c.name === "exit");
      expect(aliases.map((c) => c.name).sort()).toEqual(["clear", "exit"]);
      for (const c of aliases)
        expect(c.sourceInfo?.path ?? c.path).toContain(join(user.agent, "npm", "node_modules", "pi-aliases"));
    },
    SLOW,
  );
});
