/**
 * `pi plugin new <name> [--dir D]`: the files of a new plugin folder, ready to run, test and live-edit.
 * The plugin imports only "pi-host" and needs no package.json: `pi` loads it with jiti and hands it the
 * running host's "pi-host" module. The test boots a real Kernel with the plugin as a file source, the way
 * `pi` runs it; its vitest config resolves "pi-host" to the pi that made the folder, so the test runs
 * anywhere without installing pi-host as a dependency.
 */
import { existsSync, readdirSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { UsageError } from "./cli-flags.js";
import { expandHome } from "./paths.js";

/** What to scaffold, and the module "pi-host" is for this installation (its dist/api.js). */
export interface ScaffoldRequest {
  name: string;
  /** The folder the new plugin folder goes into; relative to `cwd`. */
  parentDir: string;
  cwd: string;
  apiModule: string;
}

/** The folder made and the files in it, relative to it, each with what it is for. */
export interface ScaffoldOutcome {
  dir: string;
  files: Array<{ path: string; purpose: string }>;
}

const NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** Writes a new plugin folder. Throws UsageError on a bad name or a folder that already has files. */
export async function scaffoldPlugin(request: ScaffoldRequest): Promise<ScaffoldOutcome> {
  if (!NAME.test(request.name)) {
    throw new UsageError(
      `plugin name "${request.name}" must be lower-case words joined by "-" (e.g. my-tool): it becomes the plugin id and the folder name`,
    );
  }
  const dir = resolve(request.cwd, expandHome(request.parentDir), request.name);
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new UsageError(`${dir} already exists and is not empty; choose another name or --dir`);
  const tool = request.name.replace(/-/g, "_");
  const files = [
    { path: "index.ts", purpose: `the plugin: the "${tool}" tool, with config`, text: indexSource(request.name, tool) },
    {
      path: `${request.name}.test.ts`,
      purpose: "its test: a Kernel running the plugin from this folder",
      text: testSource(request.name, tool),
    },
    {
      path: "vitest.config.mjs",
      purpose: `resolves "pi-host" to this pi for the test`,
      text: vitestConfigSource(request.apiModule),
    },
    { path: "README.md", purpose: "how to run, test and live-edit it", text: readmeSource(request.name, tool) },
  ];
  await mkdir(dir, { recursive: true });
  for (const file of files) await writeFile(join(dir, file.path), file.text);
  return { dir, files: files.map(({ path, purpose }) => ({ path, purpose })) };
}

function indexSource(name: string, tool: string): string {
  return `/**
 * ${name}: a pi-host plugin providing the \`${tool}\` tool. It imports only "pi-host", so it runs from any
 * folder: \`pi --plugin ./${name}\`. See README.md for running, testing and live editing.
 */
import { definePlugin, ToolContract, Type, type AgentTool, type Static } from "pi-host";

const Config = Type.Object({
  greeting: Type.String({ default: "Hello", description: "The word each answer starts with" }),
});

const Parameters = Type.Object({
  name: Type.String({ description: "Who to greet" }),
});

/** The tool, built from the plugin's validated config. */
function createTool(config: Static<typeof Config>): AgentTool<typeof Parameters> {
  return {
    name: "${tool}",
    label: "${name}",
    description: "Greet someone by name.",
    parameters: Parameters,
    async execute(_toolCallId, params) {
      return { content: [{ type: "text", text: \`\${config.greeting}, \${params.name}!\` }] };
    },
  };
}

export default definePlugin({
  id: "${name}",
  version: "0.1.0",
  description: "The ${tool} tool",
  provides: [ToolContract],
  config: Config,
  setup(ctx) {
    // Declare only: setup may not do I/O or call other plugins. The tool does its work when called.
    ctx.provide(ToolContract, createTool(ctx.config), { key: "${tool}" });
  },
});
`;
}

function testSource(name: string, tool: string): string {
  return `/**
 * Boots a real Kernel with this plugin loaded from its file, as \`pi\` loads it, and calls the tool through
 * its stable handle. Run it with \`npx vitest run\` in this folder.
 */
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import * as host from "pi-host";

const source: host.PluginSource = { kind: "file", path: fileURLToPath(new URL("./index.ts", import.meta.url)) };
const toolContext: host.ToolContext = { cwd: process.cwd(), withFileLock: (_path, work) => work() };

let kernel: host.Kernel | undefined;
afterEach(async () => {
  await kernel?.shutdown();
  kernel = undefined;
});

/** A kernel running only this plugin; its "pi-host" imports get this test's own "pi-host" module. */
async function boot(config?: unknown): Promise<{ kernel: host.Kernel; result: host.BootResult }> {
  kernel = new host.Kernel({ virtualModules: { "pi-host": host } });
  const result = await kernel.boot([{ id: "${name}", source, config }]);
  return { kernel, result };
}

/** Calls the tool as the agent loop does. */
async function callTool(k: host.Kernel, args: { name: string }): Promise<string> {
  const handle = k.useAll(host.ToolContract).list().find((h) => h.peek()?.name === "${tool}");
  if (handle === undefined) throw new Error("the ${tool} tool is not provided");
  const result = await handle.api.execute("call_1", args, undefined, undefined, toolContext);
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

it("provides the ${tool} tool, with the default config", async () => {
  const { kernel: k, result } = await boot();
  expect(result.errors).toEqual([]);
  expect(await callTool(k, { name: "Ada" })).toBe("Hello, Ada!");
});

it("uses its config, and refuses bad config naming the field", async () => {
  const { kernel: k } = await boot({ greeting: "Hi" });
  expect(await callTool(k, { name: "Ada" })).toBe("Hi, Ada!");
  await k.shutdown();
  const { result } = await boot({ greeting: 5 });
  expect(result.ok).toBe(false);
  expect(result.configErrors[0]).toMatchObject({ pluginId: "${name}", field: "config.greeting" });
});

it("reloads from its file into a new generation", async () => {
  const { kernel: k } = await boot();
  const reloaded = await k.reload("${name}", { source });
  expect(reloaded.status).toBe("committed");
  expect(k.activeGeneration("${name}")).toBe(2);
  expect(await callTool(k, { name: "Ada" })).toBe("Hello, Ada!");
});
`;
}

function vitestConfigSource(apiModule: string): string {
  return `/**
 * The plugin imports "pi-host". When pi runs it, pi provides that module itself; here, for the test,
 * it is the pi that made this folder. If pi moves (a new install path), run \`pi plugin new\` elsewhere and
 * copy the path from its vitest.config.mjs, or point this at your pi-host's dist/api.js.
 */
export default {
  resolve: { alias: { "pi-host": ${JSON.stringify(apiModule)} } },
};
`;
}

function readmeSource(name: string, tool: string): string {
  return `# ${name}

A pi-host plugin providing the \`${tool}\` tool.

| file | what it is |
|---|---|
| \`index.ts\` | the plugin: \`definePlugin({...})\` with config and a tool provider; imports only \`"pi-host"\` |
| \`${name}.test.ts\` | its test: boots a Kernel with the plugin as a file source and calls the tool |
| \`vitest.config.mjs\` | resolves \`"pi-host"\` to the installed pi for the test |

No package.json is needed: pi loads \`index.ts\` with jiti and gives it the running host's \`"pi-host"\`
module. A plugin that imports npm packages gets a package.json and \`npm install\` in this folder.

## Run it

\`\`\`sh
pi --plugin ./${name} -p "Greet Ada with the ${tool} tool"      # this run only
pi --watch --plugin ./${name}                                   # edit index.ts while pi runs
\`\`\`

To keep it, add an entry to \`~/.pi/agent/plugins.json\` (or a trusted project's \`.pi/plugins.json\`):

\`\`\`json
{ "plugins": [{ "id": "${name}", "use": "/absolute/path/to/${name}", "config": { "greeting": "Hi" } }] }
\`\`\`

## Test it

\`\`\`sh
npx vitest run        # in this folder (npx fetches vitest once if you have none)
\`\`\`

The test imports \`"pi-host"\`; \`vitest.config.mjs\` points that at the pi that created this folder.

See pi-host's docs/plugins.md for contracts and versions, effects, state and \`migrate\`, gate policies
and live editing.
`;
}
