/**
 * The default distribution ships the three real provider plugins: the built CLI lists them active with
 * one ai/provider slot per wire protocol, and booting them loads none of their SDKs (each SDK is
 * imported only when a request is made; DEPS.md puts them at 50–110 ms each).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { PI_BIN, runPi, type PiRun } from "./run-pi.js";

/** The provider plugins and the slots (wire protocols) each must offer. */
const PROVIDERS: Record<string, string[]> = {
  "provider-anthropic": ["anthropic-messages"],
  "provider-openai": ["openai-completions", "openai-responses"],
  "provider-google": ["google-generative-ai"],
};

/** Where each SDK's files live, as a resolved module URL shows it. */
const SDK_PATHS = ["/node_modules/openai/", "/node_modules/@anthropic-ai/sdk/", "/node_modules/@google/genai/"];

/** A module resolve hook (runs on the loader thread) that appends every resolved URL to a log file. */
const RECORDING_HOOK = `
import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + "\\n");
  return result;
}
`;

/** Runs the built CLI with the recording hook registered first; returns the run and the resolved URLs. */
async function runPiRecordingModules(args: string[], dir: string, env: Record<string, string>): Promise<{ run: PiRun; modules: string[] }> {
  const hook = join(dir, "record-hook.mjs");
  const register = join(dir, "register.mjs");
  const log = join(dir, "modules.log");
  writeFileSync(hook, RECORDING_HOOK);
  writeFileSync(log, "");
  writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)}, { data: { log: ${JSON.stringify(log)} } });\n`);
  const run = await new Promise<PiRun>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", pathToFileURL(register).href, PI_BIN, ...args], { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  return { run, modules: readFileSync(log, "utf8").split("\n").filter((line) => line !== "") };
}

describe("provider plugins in the default distribution (built CLI)", () => {
  let home: string;
  let env: Record<string, string>;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "pi-providers-e2e-"));
    const agent = join(home, "agent");
    mkdirSync(agent, { recursive: true });
    env = { PI_CODING_AGENT_DIR: agent, HOME: home };
  });

  it("pi plugins lists provider-anthropic, provider-openai and provider-google active, one slot per wire protocol", async () => {
    const run = await runPi(["plugins", "--json"], { cwd: home, env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const plugins = JSON.parse(run.stdout) as Array<{ id: string; status: string; source: string; provides: Array<{ contract: string; key: string }> }>;
    for (const [id, apis] of Object.entries(PROVIDERS)) {
      const plugin = plugins.find((p) => p.id === id);
      expect(plugin, `${id} is in the default distribution`).toBeDefined();
      expect(plugin).toMatchObject({ status: "active", source: `builtin:${id}` });
      expect(plugin!.provides).toEqual(apis.map((key) => ({ contract: "ai/provider", version: "1.0.0", key })));
    }

    const table = await runPi(["plugins"], { cwd: home, env });
    expect(table.code).toBe(0);
    for (const id of Object.keys(PROVIDERS)) expect(table.stdout).toMatch(new RegExp(`^${id}\\s+\\S+\\s+active\\s+1\\s+ai/provider@1\\.0\\.0`, "m"));
  });

  it("booting all three provider plugins loads none of their SDKs", async () => {
    const { run, modules } = await runPiRecordingModules(["plugins", "--json"], home, env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    // The hook saw the plugins load, so an SDK import would have been seen too.
    for (const id of Object.keys(PROVIDERS)) expect(modules.some((url) => url.endsWith(`/dist/plugins/${id}/index.js`))).toBe(true);
    expect(modules.filter((url) => SDK_PATHS.some((path) => url.includes(path)))).toEqual([]);
  });
});
