/**
 * MCP and codemode on the built CLI: `pi -p` with both plugins added by a --distribution overlay, the
 * faux provider scripting the model, the real server-everything started over stdio; and the proof
 * that neither plugin costs a cold start anything — the MCP SDK and QuickJS load only when used.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { agentHome, messageRoles, sessionLines } from "./agent-home.js";
import { runPiRecordingModules } from "./record-modules.js";

const PROJECT = fileURLToPath(new URL("../../", import.meta.url));
const EVERYTHING = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);
/** What the two plugins must not load until used. */
const LAZY_PACKAGES = ["@modelcontextprotocol/sdk", "quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync"];

function lazyPackagesIn(modules: string[]): string[] {
  return LAZY_PACKAGES.filter((name) => modules.some((url) => url.includes(`/node_modules/${name}/`)));
}

/** A distribution overlay adding both plugins, with server-everything configured for MCP. */
function overlay(
  dir: string,
  servers: Record<string, unknown> = { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
): string {
  const file = join(dir, "mcp-distribution.json");
  writeFileSync(
    file,
    JSON.stringify({
      plugins: [
        // Declared tools and an always-offered codemode: the model here calls MCP tools by name.
        { id: "mcp", use: "mcp", config: { servers, defaultExposure: "direct" } },
        { id: "codemode", use: "codemode", enabled: true, config: { offer: "always" } },
      ],
    }),
  );
  return file;
}

beforeAll(() => {
  if (
    !existsSync(join(PROJECT, "dist/plugins/mcp/index.js")) ||
    !existsSync(join(PROJECT, "dist/plugins/codemode/index.js"))
  ) {
    throw new Error('dist/plugins/mcp or dist/plugins/codemode is missing; run "npm run build" first');
  }
});

describe("pi -p with the mcp and codemode plugins (built CLI)", () => {
  it("calls MCP tools through the loop, surfaces a server error as a tool error, and runs a codemode script over MCP tools", async () => {
    const user = agentHome();
    user.scriptFaux([
      {
        content: [
          { type: "toolCall", id: "sum", name: "mcp__everything__get-sum", arguments: { a: 2, b: 3 } },
          {
            type: "toolCall",
            id: "bad",
            name: "mcp__everything__read_resource",
            arguments: { uri: "demo://no/such/thing" },
          },
        ],
      },
      {
        content: [
          {
            type: "toolCall",
            id: "script",
            name: "codemode",
            arguments: {
              code: "const echoes = [];\nfor (const word of ['one', 'two', 'three']) echoes.push(await tools.mcp__everything__echo({ message: word }));\nreturn echoes.join(' | ');",
            },
          },
        ],
      },
      { content: "All done." },
    ]);
    const run = await user.pi([
      "-p",
      "--model",
      "faux/faux-1",
      "--distribution",
      overlay(user.home),
      "use the MCP tools",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("All done.\n");

    const [file] = user.sessionFiles();
    expect(messageRoles(file!)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "toolResult",
      "assistant",
      "toolResult",
      "assistant",
    ]);
    const results = sessionLines(file!)
      .filter((e) => e.type === "message" && e.message.role === "toolResult")
      .map((e) => e.message);
    expect(results[0]).toMatchObject({ toolCallId: "sum", toolName: "mcp__everything__get-sum", isError: false });
    expect(results[0].content[0].text).toContain("5");
    expect(results[1]).toMatchObject({ toolCallId: "bad", isError: true });
    expect(results[1].content[0].text).toMatch(/^MCP server "everything": .*demo:\/\/no\/such\/thing/);
    expect(results[2]).toMatchObject({
      toolCallId: "script",
      toolName: "codemode",
      isError: false,
      details: { toolCalls: 3, failedToolCalls: 0 },
    });
    expect(results[2].content).toEqual([{ type: "text", text: "Echo: one | Echo: two | Echo: three" }]);
  });

  it("a server that fails to start is one line on stderr; the run goes on without it", async () => {
    const user = agentHome();
    user.scriptFaux([{ content: "Fine without it." }]);
    const missing = join(user.home, "no-such-server");
    const run = await user.pi([
      "-p",
      "--model",
      "faux/faux-1",
      "--distribution",
      overlay(user.home, { broken: { command: missing } }),
      "hello",
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Fine without it.\n");
    expect(run.stderr).toBe(`MCP server "broken" failed to start: spawn ${missing} ENOENT\n`);
  });

  it("a server of <agent>/mcp.json offers its tools with ${VAR} and !command env values; an untrusted .pi/mcp.json is skipped", async () => {
    const user = agentHome();
    writeFileSync(
      join(user.agent, "mcp.json"),
      JSON.stringify({
        mcpServers: {
          everything: {
            command: process.execPath,
            args: [EVERYTHING, "stdio"],
            exposure: "direct",
            env: { FROM_VAR: "v-${PI_MCP_E2E_VALUE}", FROM_COMMAND: "!echo from-command" },
          },
        },
      }),
    );
    const marker = join(user.home, "project-server-ran");
    mkdirSync(join(user.project, ".pi"), { recursive: true });
    writeFileSync(
      join(user.project, ".pi", "mcp.json"),
      JSON.stringify({
        mcpServers: {
          project: {
            command: process.execPath,
            args: ["-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran")`],
          },
        },
      }),
    );
    user.scriptFaux([
      { content: [{ type: "toolCall", id: "env", name: "mcp__everything__get-env", arguments: {} }] },
      { content: "Read it." },
    ]);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "show the server env"], {
      env: { PI_MCP_E2E_VALUE: "e2e" },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Read it.\n");
    expect(run.stderr).toMatch(/^pi: skipped project resources in .*\.pi\/mcp\.json.*not trusted/);
    const result = sessionLines(user.sessionFiles()[0]!).find(
      (e) => e.type === "message" && e.message.role === "toolResult",
    ).message;
    expect(result).toMatchObject({ toolName: "mcp__everything__get-env", isError: false });
    const env = JSON.parse(result.content[0].text) as Record<string, string>;
    expect(env).toMatchObject({ FROM_VAR: "v-e2e", FROM_COMMAND: "from-command" });
    expect(existsSync(marker)).toBe(false);
  });

  it("either plugin can be left out of the distribution", async () => {
    const user = agentHome();
    const listed = await user.pi([
      "plugins",
      "--json",
      "--distribution",
      overlay(user.home),
      "--no-plugin",
      "codemode",
    ]);
    expect(listed.code).toBe(0);
    const byId = Object.fromEntries(
      (JSON.parse(listed.stdout) as Array<{ id: string; status: string }>).map((p) => [p.id, p.status]),
    );
    expect(byId).toMatchObject({ mcp: "active", codemode: "disabled" });
    user.scriptFaux([
      { content: [{ type: "toolCall", id: "s", name: "codemode", arguments: { code: "return 1" } }] },
      { content: "ok" },
    ]);
    const run = await user.pi([
      "-p",
      "--model",
      "faux/faux-1",
      "--distribution",
      overlay(user.home),
      "--no-plugin",
      "codemode",
      "--no-plugin",
      "mcp",
      "hi",
    ]);
    expect(run.code).toBe(0);
    const result = sessionLines(user.sessionFiles()[0]!).find(
      (e) => e.type === "message" && e.message.role === "toolResult",
    ).message;
    expect(result).toMatchObject({ toolName: "codemode", isError: true });
    expect(result.content[0].text).toMatch(/^Tool "codemode" not found/);
  });
});

describe("cold start loads neither the MCP SDK nor QuickJS", () => {
  it("pi --version, and a pi -p run with both plugins but no server configured and no script run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-mcp-cold-"));
    const version = await runPiRecordingModules(["--version"], dir, {});
    expect(version.run.code).toBe(0);
    expect(version.modules.length).toBeGreaterThan(0);
    expect(lazyPackagesIn(version.modules)).toEqual([]);

    const user = agentHome();
    user.scriptFaux([{ content: "plain answer" }]);
    const run = await runPiRecordingModules(
      ["-p", "--model", "faux/faux-1", "--distribution", overlay(user.home, {}), "hi"],
      user.project,
      user.env,
    );
    expect(run.run.stdout).toBe("plain answer\n");
    expect(run.modules.some((url) => url.endsWith("/dist/plugins/mcp/index.js"))).toBe(true);
    expect(run.modules.some((url) => url.endsWith("/dist/plugins/codemode/index.js"))).toBe(true);
    expect(lazyPackagesIn(run.modules)).toEqual([]);
  });

  it("importing the built plugins in a fresh process loads neither; using them loads each (the check can fail)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-mcp-import-"));
    const hook = join(dir, "hook.mjs");
    const log = join(dir, "modules.log");
    writeFileSync(log, "");
    writeFileSync(
      hook,
      `import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + "\\n");
  return result;
}
`,
    );
    // Imports both built plugins, reports what loaded, then uses each plugin's provider once.
    const child = join(dir, "child.mjs");
    writeFileSync(
      child,
      `import { register, createRequire } from "node:module";
import { readFileSync } from "node:fs";
const [hook, log, project, everything] = process.argv.slice(2);
register(new URL("file://" + hook), import.meta.url, { data: { log } });
const require = createRequire(project + "/package.json");
const loaded = () => [...readFileSync(log, "utf8").split("\\n"), ...Object.keys(require.cache)].filter(Boolean);
const mcp = (await import(project + "/dist/plugins/mcp/index.js")).default;
const codemode = (await import(project + "/dist/plugins/codemode/index.js")).default;
const afterImport = loaded();
const provided = {};
const handles = { list: () => [] };
const ctx = (pluginId, config) => ({
  pluginId, config, signal: new AbortController().signal,
  provide: (contract, value) => { provided[pluginId + ":" + contract.id] = value; },
  use: () => ({ available: false }), useAll: () => handles,
  getState: () => ({ toggles: {} }), setState: () => {}, emit: () => {}, onDispose: () => {},
  spawn: () => { throw new Error("setup must not spawn"); },
});
mcp.setup(ctx("mcp", { servers: { everything: { command: process.execPath, args: [everything, "stdio"] } }, disabled: [], readSettings: false, exposeResources: true, startTimeoutMs: 20000, callTimeoutMs: 20000 }));
codemode.setup(ctx("codemode", { timeLimitMs: 5000, memoryLimitMb: 16, maxOutputBytes: 4096, excludeTools: [] }));
const afterSetup = loaded();
const tools = await provided["codemode:tool/source"].executeTool("codemode", "c1", { code: "return 6 * 7" }, undefined, undefined, { cwd: project, withFileLock: (p, w) => w() });
const afterCodemode = loaded();
console.log(JSON.stringify({ afterImport, afterSetup, afterCodemode, codemodeResult: tools.content[0].text }));
process.exit(0);
`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, [child, hook, log, PROJECT, EVERYTHING], {
      cwd: dir,
    });
    const report = JSON.parse(stdout) as {
      afterImport: string[];
      afterSetup: string[];
      afterCodemode: string[];
      codemodeResult: string;
    };
    expect(report.afterImport.some((url) => url.endsWith("/dist/plugins/mcp/index.js"))).toBe(true);
    expect(lazyPackagesIn(report.afterImport)).toEqual([]);
    expect(lazyPackagesIn(report.afterSetup)).toEqual([]);
    expect(report.codemodeResult).toBe("42");
    // A script runs in a worker thread that loads QuickJS there; the main thread never loads it.
    expect(lazyPackagesIn(report.afterCodemode)).toEqual([]);
  });

  it("a configured server loads the MCP SDK at the first listing, not before", async () => {
    const user = agentHome();
    user.scriptFaux([{ content: "listed" }]);
    const run = await runPiRecordingModules(
      ["-p", "--model", "faux/faux-1", "--distribution", overlay(user.home), "hi"],
      user.project,
      user.env,
    );
    expect(run.run.stdout).toBe("listed\n");
    expect(lazyPackagesIn(run.modules)).toEqual(["@modelcontextprotocol/sdk"]);
    expect(readFileSync(join(PROJECT, "dist/plugins/mcp/index.js"), "utf8")).not.toMatch(
      /^import .*@modelcontextprotocol/m,
    );
  });
});
