/**
 * The default distribution ships the three real provider plugins: the built CLI lists them active with
 * one ai/provider slot per wire protocol, and booting them loads none of their SDKs (each SDK is
 * imported only when a request is made; DEPS.md puts them at 50–110 ms each).
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runPiRecordingModules, sdksIn } from "./record-modules.js";
import { runPi } from "./run-pi.js";

/** The provider plugins and the slots (wire protocols) each must offer. */
const PROVIDERS: Record<string, string[]> = {
  "provider-anthropic": ["anthropic-messages"],
  "provider-openai": ["openai-completions", "openai-responses", "azure-openai-responses"],
  "provider-google": ["google-generative-ai", "google-vertex"],
  "provider-bedrock": ["bedrock-converse-stream"],
  "provider-mistral": ["mistral-conversations"],
  "provider-pi-messages": ["pi-messages"],
};

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
    const plugins = JSON.parse(run.stdout) as Array<{
      id: string;
      status: string;
      source: string;
      provides: Array<{ contract: string; key: string }>;
    }>;
    for (const [id, apis] of Object.entries(PROVIDERS)) {
      const plugin = plugins.find((p) => p.id === id);
      expect(plugin, `${id} is in the default distribution`).toBeDefined();
      expect(plugin).toMatchObject({ status: "active", source: `builtin:${id}` });
      expect(plugin!.provides).toEqual(apis.map((key) => ({ contract: "ai/provider", version: "1.0.0", key })));
    }

    const table = await runPi(["plugins"], { cwd: home, env });
    expect(table.code).toBe(0);
    for (const id of Object.keys(PROVIDERS))
      expect(table.stdout).toMatch(new RegExp(`^${id}\\s+\\S+\\s+active\\s+1\\s+ai/provider@1\\.0\\.0`, "m"));
  });

  it("booting all three provider plugins loads none of their SDKs", async () => {
    const { run, modules } = await runPiRecordingModules(["plugins", "--json"], home, env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    // The hook saw the plugins load, so an SDK import would have been seen too.
    for (const id of Object.keys(PROVIDERS))
      expect(modules.some((url) => url.endsWith(`/dist/plugins/${id}/index.js`))).toBe(true);
    expect(sdksIn(modules)).toEqual([]);
  });
});
