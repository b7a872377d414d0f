/**
 * The SDK costs ~110 ms to import, so provider-anthropic must not load it until a request is made. Two
 * proofs: the source has no runtime import of it outside the stream path, and a fresh `node` process that
 * loads the plugin (through jiti, as user plugins are loaded) has no SDK module until `stream()` runs.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import { TEXT_ANSWER } from "../../fixtures/sse/anthropic-messages/text.js";

const PROJECT = fileURLToPath(new URL("../../../", import.meta.url));
const PLUGIN_DIR = join(PROJECT, "plugins/ai/provider-anthropic");

/** Records every module URL Node resolves, synchronously, so the file is complete when an import settles. */
const RESOLVE_HOOK = `
import { appendFileSync } from "node:fs";
let logPath;
export async function initialize(data) { logPath = data.logPath; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(logPath, result.url + "\\n");
  return result;
}
`;

/** Loads the plugin with jiti, reports SDK modules loaded after import and after one stream. */
const CHILD = `
import { register, createRequire } from "node:module";
import { readFileSync } from "node:fs";
const [hookPath, logPath, project, baseUrl] = process.argv.slice(2);
register(new URL("file://" + hookPath), import.meta.url, { data: { logPath } });
const require = createRequire(project + "/package.json");
const sdkModules = () => {
  const resolved = readFileSync(logPath, "utf8").split("\\n");
  return [...resolved, ...Object.keys(require.cache)].filter((p) => p.includes("@anthropic-ai/sdk")).length;
};
const { createJiti } = await import(require.resolve("jiti"));
const jiti = createJiti(project + "/package.json", { moduleCache: false, alias: { "pi-host": project + "/hosts/api.ts" } });
const plugin = (await jiti.import(project + "/plugins/ai/provider-anthropic/index.ts", { default: true }));
let provider;
plugin.setup({ provide: (_contract, implementation) => { provider = implementation; } });
const afterImport = sdkModules();
const model = { id: "claude-sonnet-4-5", name: "Claude", api: "anthropic-messages", provider: "anthropic", baseUrl, reasoning: false,
  input: ["text"], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 200000, maxTokens: 8192 };
const result = await provider.stream(model, { messages: [{ role: "user", content: "hi", timestamp: 1 }] }, { apiKey: "sk-ant-test" }).result();
console.log(JSON.stringify({ afterImport, afterStream: sdkModules(), stopReason: result.stopReason, errorMessage: result.errorMessage ?? null }));
`;

let server: MockLlmServer;

beforeEach(async () => {
  server = await new MockLlmServer().start();
});

afterEach(async () => {
  await server.close();
});

describe("provider-anthropic loads @anthropic-ai/sdk lazily", () => {
  it("has no runtime import of the SDK except the dynamic imports in client.ts's request function", () => {
    const files = readdirSync(PLUGIN_DIR).filter((name) => name.endsWith(".ts"));
    expect(files).toContain("index.ts");
    const runtimeImports: string[] = [];
    for (const name of files) {
      const source = readFileSync(join(PLUGIN_DIR, name), "utf8");
      // Static import/export statements naming the SDK, other than type-only ones.
      const statements = source.match(/^\s*(import|export)\s[^;]*?from\s*["']@anthropic-ai\/sdk[^"']*["']/gm) ?? [];
      for (const statement of statements)
        if (!/^\s*(import|export)\s+type\s/.test(statement)) runtimeImports.push(`${name}: ${statement.trim()}`);
      // Side-effect imports and require() calls.
      for (const match of source.matchAll(
        /(^\s*import\s*["']@anthropic-ai\/sdk[^"']*["']|require\(\s*["']@anthropic-ai\/sdk[^"']*["']\s*\))/gm,
      ))
        runtimeImports.push(`${name}: ${match[0].trim()}`);
      for (const match of source.matchAll(/await import\(\s*["'](@anthropic-ai\/sdk[^"']*)["']\s*\)/g))
        runtimeImports.push(`${name}: dynamic ${match[1]}`);
    }
    expect(runtimeImports).toEqual([
      "client.ts: dynamic @anthropic-ai/sdk",
      "client.ts: dynamic @anthropic-ai/sdk/core/streaming",
    ]);
    // The dynamic imports sit inside the function that sends a request, not at module top level.
    const client = readFileSync(join(PLUGIN_DIR, "client.ts"), "utf8");
    const sendFunction = client.slice(client.indexOf("export async function openEventStream"));
    expect(sendFunction.indexOf('await import("@anthropic-ai/sdk")')).toBeGreaterThan(0);
    expect(client.indexOf("await import(")).toBeGreaterThan(client.indexOf("export async function openEventStream"));
  });

  // A cold process compiles the plugin's TypeScript first: on a loaded machine that takes a while.
  it("a fresh node process importing the plugin has no SDK module loaded until stream() is called", async () => {
    server.enqueue({ sse: TEXT_ANSWER });
    const dir = mkdtempSync(join(tmpdir(), "pi-anthropic-lazy-"));
    const hookPath = join(dir, "resolve-hook.mjs");
    const logPath = join(dir, "resolved.log");
    const childPath = join(dir, "child.mjs");
    writeFileSync(hookPath, RESOLVE_HOOK);
    writeFileSync(logPath, "");
    writeFileSync(childPath, CHILD);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [childPath, hookPath, logPath, PROJECT.replace(/\/$/, ""), server.url],
      { cwd: PROJECT },
    );
    const report = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      afterImport: number;
      afterStream: number;
      stopReason: string;
      errorMessage: string | null;
    };

    expect(report).toMatchObject({ afterImport: 0, stopReason: "stop", errorMessage: null });
    expect(report.afterStream).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
  }, 120_000);
});
