import { copyFileSync, mkdirSync, readdirSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { defineConfig, type Options } from "tsup";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

/**
 * Built-in plugins live in kind folders (plugins/<kind>/<name>/index.ts); each compiles to
 * dist/plugins/<name>/index.js, where the host loads a built-in by its name.
 */
const pluginSources: Record<string, string> = Object.fromEntries(
  (existsSync("plugins") ? readdirSync("plugins", { withFileTypes: true }) : [])
    .filter((kind) => kind.isDirectory())
    .flatMap((kind) =>
      readdirSync(`plugins/${kind.name}`, { withFileTypes: true }).map(
        (d) => [d, `plugins/${kind.name}/${d.name}`] as const,
      ),
    )
    .filter(([d, dir]) => d.isDirectory() && existsSync(`${dir}/index.ts`))
    .map(([d, dir]) => [d.name, `${dir}/index.ts`]),
);
const pluginEntries = Object.fromEntries(
  Object.entries(pluginSources).map(([name, file]) => [`plugins/${name}/index`, file]),
);

type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];

const ROOT = resolve(".");
const KERNEL_DIR = join(ROOT, "kernel");
const KERNEL_API = join(KERNEL_DIR, "index.ts");
const CONTRACTS_DIR = join(ROOT, "contracts");
const KIT_DIR = join(ROOT, "kit");
const PUBLIC_API = join(ROOT, "hosts", "api.ts");

/*
 * Chunking for cold start. esbuild's code splitting puts a shared module into one chunk per *set of
 * entry points* that reach it. With every plugin an entry point, and each plugin importing a different
 * subset of the contracts, the kernel and contracts came out as ~20 chunks and the default plugins as 27
 * more files: a `pi -p` run loaded 61 modules of ours, and Node's ESM loader spends ~0.4–0.9 ms of CPU on
 * each (resolve, realpath, read, compile, link) before any code runs. The two plugins below make esbuild
 * produce a few large chunks instead; what stays lazy (the TUI view, provider and other SDKs, jiti,
 * chokidar, QuickJS) is untouched, because those are dynamic imports or externals. Measured in
 * bench/RESULTS.md (cli).
 */

/** Every module under `dir` (contracts/ or kit/), sorted. */
function contractFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) =>
      d.isDirectory() ? contractFiles(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : [],
    )
    .sort();
}

const isInside = (dir: string, file: string): boolean => file.startsWith(dir + sep);

/**
 * One chunk for the kernel, all contracts and kit: every import of `kernel/index`, of a contract or of a
 * kit module from a plugin or a host goes through one module that re-exports them all, so all entry
 * points reach all of them alike. Imports inside kernel/, contracts/ and kit/ stay direct, and so do
 * hosts/api.ts's: it re-exports every contract and kit itself, and the "pi-host" module must export
 * exactly what its source lists.
 */
const oneRuntimeChunk: EsbuildPlugin = {
  name: "one-runtime-chunk",
  setup(build) {
    // Plugins import the kernel, contracts and kit as "pi-host" (as an ejected copy does): the same chunk.
    build.onResolve({ filter: /^pi-host$/ }, () => ({ path: "runtime", namespace: "pi-runtime" }));
    build.onResolve({ filter: /(^|\/)(kernel|contracts|kit)\// }, (args) => {
      if (args.kind === "entry-point" || args.namespace === "pi-runtime" || !args.path.startsWith("."))
        return undefined;
      if (
        [CONTRACTS_DIR, KIT_DIR, KERNEL_DIR].some((dir) => isInside(dir, args.importer)) ||
        args.importer === PUBLIC_API
      )
        return undefined;
      const target = resolve(args.resolveDir, args.path).replace(/\.js$/, ".ts");
      if (target !== KERNEL_API && !isInside(CONTRACTS_DIR, target) && !isInside(KIT_DIR, target)) return undefined;
      return { path: "runtime", namespace: "pi-runtime" };
    });
    // esbuild orders a chunk's modules by their distance from an entry point, so the Reflect polyfill is
    // imported here first, one step nearer than tsyringe (reached through kernel/index.ts), which needs it.
    build.onLoad({ filter: /.*/, namespace: "pi-runtime" }, () => ({
      contents: [
        `import "./kernel/reflect.ts";`,
        ...[KERNEL_API, ...contractFiles(CONTRACTS_DIR), ...contractFiles(KIT_DIR)].map(
          (file) => `export * from "./${relative(ROOT, file).split(sep).join("/")}";`,
        ),
      ].join("\n"),
      resolveDir: ROOT,
      loader: "ts",
    }));
  },
};

/** The built-ins the package's default distribution runs: the ones every run loads. */
const DEFAULT_BUILTINS = (
  JSON.parse(readFileSync("plugins.json", "utf8")) as { plugins: Array<{ use?: string; enabled?: boolean }> }
).plugins
  .filter((entry) => entry.enabled !== false && typeof entry.use === "string" && pluginSources[entry.use] !== undefined)
  .map((entry) => entry.use!);
const builtinExport = (name: string): string => `builtin_${name.replace(/[^A-Za-z0-9]/g, "_")}`;

/**
 * One chunk for the default distribution's built-ins. Each `dist/plugins/<name>/index.js` stays where
 * the kernel loads it, but for these plugins it is a stub re-exporting its definition from a module that
 * imports them all, so their code lands in one chunk loaded once. Built-ins outside the default
 * distribution (disabled or opt-in ones) keep a file of their own.
 */
const oneBuiltinsChunk: EsbuildPlugin = {
  name: "one-builtins-chunk",
  setup(build) {
    build.onResolve({ filter: /plugins[\\/][^\\/]+[\\/][^\\/]+[\\/]index\.ts$/ }, (args) => {
      if (args.kind !== "entry-point") return undefined;
      const name = args.path.split(/[\\/]/).at(-2)!;
      return DEFAULT_BUILTINS.includes(name) ? { path: name, namespace: "pi-builtin-entry" } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: "pi-builtin-entry" }, (args) => ({
      contents: `export { ${builtinExport(args.path)} as default } from "pi-default-builtins";`,
      resolveDir: ROOT,
      loader: "ts",
    }));
    build.onResolve({ filter: /^pi-default-builtins$/ }, () => ({
      path: "default-builtins",
      namespace: "pi-default-builtins",
    }));
    build.onLoad({ filter: /.*/, namespace: "pi-default-builtins" }, () => ({
      contents: DEFAULT_BUILTINS.map(
        (name) => `export { default as ${builtinExport(name)} } from "./${pluginSources[name]}";`,
      ).join("\n"),
      resolveDir: ROOT,
      loader: "ts",
    }));
  },
};

/** The SDK packages whose web-global references are pointed at kit's stand-ins. */
const SDK_FILE = /[\\/]node_modules[\\/](openai|@anthropic-ai[\\/]sdk)[\\/].*\.mjs$/;

/** Each web global the SDKs name on a request's path, and the "pi-host" export that stands in for it. */
const SDK_GLOBAL_STANDINS: Record<string, string> = {
  Headers: "LiteHeaders",
  FormData: "LazyFormData",
  Response: "LazyResponse",
};

/**
 * The OpenAI and Anthropic SDKs build every request's headers with `new Headers()` and check
 * `instanceof Headers` / `instanceof FormData` on every request; Node's globals of those names load
 * undici (~30 ms of CPU, ~13 MB of RSS) on first touch. In those SDK files, they are kit's stand-ins
 * (kit/ai/lite-headers.ts, kit/ai/lazy-web-globals.ts, reached through "pi-host", the runtime chunk
 * every run has loaded), so a request sent with `nodeFetch` over node:http never loads undici. The
 * stand-ins pass `instanceof` for the real classes too, and the global fetch accepts a `LiteHeaders` as
 * a header list. Measured in bench/RESULTS.md.
 */
const liteHeadersInSdks: EsbuildPlugin = {
  name: "lite-headers-in-sdks",
  setup(build) {
    build.onLoad({ filter: SDK_FILE }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const aliases = Object.entries(SDK_GLOBAL_STANDINS).filter(
        ([name]) =>
          new RegExp(`\\b(?:new|instanceof)\\s+${name}\\b`).test(source) &&
          !new RegExp(
            `\\b(?:const|let|var|class|function)\\s+${name}\\b|\\bimport\\b[^;]*\\b${name}\\b[^;]*\\bfrom\\b`,
          ).test(source),
      );
      if (aliases.length === 0) return undefined;
      const names = aliases.map(([name, standIn]) => `${standIn} as ${name}`).join(", ");
      return {
        contents: `import { ${names} } from "pi-host";\n${source}`,
        loader: "js",
        resolveDir: dirname(args.path),
      };
    });
  },
};

/**
 * A built-in plugin's data files (`*.json` beside its code, e.g. the models plugin's catalog) are read at
 * run time next to the module that reads them: `dist/plugins/<name>/` for a plugin built on its own, and
 * `dist/`, where the chunks of the default distribution's plugins are.
 */
async function copyPluginData(): Promise<void> {
  for (const [name, entry] of Object.entries(pluginSources)) {
    const dir = join(entry, "..");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
      mkdirSync(join("dist", "plugins", name), { recursive: true });
      copyFileSync(join(dir, file), join("dist", "plugins", name, file));
      if (DEFAULT_BUILTINS.includes(name)) copyFileSync(join(dir, file), join("dist", file));
    }
  }
}

/** ASCII stand-ins for the characters our comments use most; anything else in a comment becomes "?". */
const ASCII_FOR: Record<string, string> = {
  "—": "-",
  "–": "-",
  "─": "-",
  "×": "x",
  "→": "->",
  "≤": "<=",
  "≥": ">=",
  "…": "...",
};
const COMMENT_LINE = /^\s*(\/\/|\/\*|\*)/;

/**
 * esbuild escapes non-ASCII characters in strings, but keeps comments as written; one "—" in a comment
 * makes V8 hold the whole chunk's source as two-byte characters (a 700 KB chunk: 1.4 MB of heap; 2.8 MB
 * in large-object space on a `-p` run, bench/RESULTS.md). Rewrites those characters on comment lines of
 * the built .js files to ASCII, so every chunk is one byte per character in memory.
 */
function asciiComments(dir = "dist"): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name);
    if (entry.isDirectory()) asciiComments(file);
    if (!entry.isFile() || !file.endsWith(".js")) continue;
    const text = readFileSync(file, "utf8");
    if (!/[^\x00-\x7f]/.test(text)) continue;
    const lines = text
      .split("\n")
      .map((line) => (COMMENT_LINE.test(line) ? line.replace(/[^\x00-\x7f]/g, (c) => ASCII_FOR[c] ?? "?") : line));
    writeFileSync(file, lines.join("\n"));
  }
}

export default defineConfig({
  onSuccess: async () => {
    await copyPluginData();
    asciiComments();
  },
  entry: { cli: "hosts/cli-start.ts", api: "hosts/api.ts", sdk: "hosts/sdk.ts", ...pluginEntries },
  format: ["esm"],
  platform: "node",
  target: "node20",
  outDir: "dist",
  clean: true,
  splitting: true,
  sourcemap: false,
  dts: false,
  // Bundle dependencies to cut module-resolution cost at start-up. The OpenAI and Anthropic SDKs are
  // bundled too: each lands in the chunk its provider imports lazily, so a run that talks to OpenAI
  // loads one file of it instead of 154 modules (bench/RESULTS.md). The rest below stay external and
  // are imported lazily, only when a feature needs them (ssh2 also finds its optional native crypto
  // binding next to its own files, which a bundle would break).
  noExternal: [
    /^(?!(jiti|chokidar|@google\/genai|@aws-sdk\/client-bedrock-runtime|@modelcontextprotocol\/sdk|quickjs-emscripten-core|@jitl\/quickjs-wasmfile-release-sync|@agentclientprotocol\/sdk|@silvia-odwyer\/photon-node|ssh2)(\/|$)).*/,
  ],
  external: [
    "jiti",
    "chokidar",
    "@google/genai",
    "@aws-sdk/client-bedrock-runtime",
    "@modelcontextprotocol/sdk",
    "quickjs-emscripten-core",
    "@jitl/quickjs-wasmfile-release-sync",
    "@agentclientprotocol/sdk",
    "ssh2",
    // Reads its WebAssembly file next to itself, so it cannot be bundled; loaded for a large image only.
    "@silvia-odwyer/photon-node",
  ],
  define: { __PI_VERSION__: JSON.stringify(pkg.version) },
  esbuildPlugins: [oneRuntimeChunk, oneBuiltinsChunk, liteHeadersInSdks],
  banner: {
    js: `import { createRequire as __piCreateRequire } from "node:module"; const require = __piCreateRequire(import.meta.url);`,
  },
});
