import { readdirSync, existsSync, readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

/** Every built-in plugin compiles to dist/plugins/<name>/index.js, loaded by path at run time. */
const pluginEntries = Object.fromEntries(
  (existsSync("plugins") ? readdirSync("plugins", { withFileTypes: true }) : [])
    .filter((d) => d.isDirectory() && existsSync(`plugins/${d.name}/index.ts`))
    .map((d) => [`plugins/${d.name}/index`, `plugins/${d.name}/index.ts`]),
);

export default defineConfig({
  entry: { cli: "hosts/cli.ts", api: "hosts/api.ts", sdk: "hosts/sdk.ts", ...pluginEntries },
  format: ["esm"],
  platform: "node",
  target: "node20",
  outDir: "dist",
  clean: true,
  splitting: true,
  sourcemap: false,
  dts: false,
  // Bundle small dependencies to cut module-resolution cost at start-up; heavy ones stay external and
  // are imported lazily, only when a feature needs them.
  noExternal: [/^(?!(jiti|chokidar|openai|@anthropic-ai\/sdk|@google\/genai|@modelcontextprotocol\/sdk|quickjs-emscripten-core|@jitl\/quickjs-wasmfile-release-sync|@agentclientprotocol\/sdk)(\/|$)).*/],
  external: ["jiti", "chokidar", "openai", "@anthropic-ai/sdk", "@google/genai", "@modelcontextprotocol/sdk", "quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync", "@agentclientprotocol/sdk"],
  define: { __PI_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: `import { createRequire as __piCreateRequire } from "node:module"; const require = __piCreateRequire(import.meta.url);` },
});
