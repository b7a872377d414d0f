/**
 * Runs the built `pi` with a module resolve hook registered first, to see which modules a run loads:
 * the proof that a provider SDK is imported only by a run that talks to that provider.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PI_BIN, type PiRun } from "./run-pi.js";

/** The provider SDKs, by package name. */
export const PROVIDER_SDKS = [
  "@anthropic-ai/sdk",
  "openai",
  "@google/genai",
  "@aws-sdk/client-bedrock-runtime",
] as const;

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

/**
 * The provider SDKs among resolved module URLs: an SDK file itself, or a chunk of ours that bundles
 * the SDK (the build inlines SDKs into the lazily imported chunk of the provider that uses them, and
 * esbuild marks each inlined file with a `// node_modules/<package>/...` comment line).
 */
export function sdksIn(modules: string[]): string[] {
  const ours = modules.filter((url) => url.startsWith("file:") && !url.includes("/node_modules/"));
  const bundled = (sdk: string): boolean => ours.some((url) => chunkText(url).includes(`\n// node_modules/${sdk}/`));
  return PROVIDER_SDKS.filter((sdk) => modules.some((url) => url.includes(`/node_modules/${sdk}/`)) || bundled(sdk));
}

const chunkTexts = new Map<string, string>();

/** A loaded module's source, read once. */
function chunkText(url: string): string {
  let text = chunkTexts.get(url);
  if (text === undefined) {
    text = readFileSync(fileURLToPath(url), "utf8");
    chunkTexts.set(url, text);
  }
  return text;
}

/** A preload that writes the Node built-in modules the process loaded (internal ones too) at exit. */
const BUILTINS_PRELOAD = `
const { writeFileSync } = require("node:fs");
process.on("exit", () => {
  const names = process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice(13));
  writeFileSync(process.env.PI_TEST_BUILTINS_LOG, names.join("\\n"));
});
`;

/**
 * Runs `node --import <hook> dist/cli.js ...args` in `cwd` (where the hook files and log are written);
 * returns the run, every module URL it resolved, in order, and the Node built-ins it loaded
 * (`internal/deps/undici/undici` among them when something touched fetch, Headers or Response).
 */
export async function runPiRecordingModules(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ run: PiRun; modules: string[]; builtins: string[] }> {
  const hook = join(cwd, "record-hook.mjs");
  const register = join(cwd, "register.mjs");
  const log = join(cwd, "modules.log");
  writeFileSync(hook, RECORDING_HOOK);
  writeFileSync(log, "");
  writeFileSync(
    register,
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)}, { data: { log: ${JSON.stringify(log)} } });\n`,
  );
  const { run, builtins } = await runWithBuiltinsPreload(
    ["--import", pathToFileURL(register).href, PI_BIN, ...args],
    cwd,
    env,
  );
  return {
    run,
    modules: readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line !== ""),
    builtins,
  };
}

/**
 * Runs `node dist/cli.js ...args` in `cwd` with only the built-ins preload: the Node built-ins the run
 * loaded, without the resolve hook, whose loader thread would add worker_threads and net of its own.
 */
export async function runPiRecordingBuiltins(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ run: PiRun; builtins: string[] }> {
  return runWithBuiltinsPreload([PI_BIN, ...args], cwd, env);
}

/** Spawns Node with the built-ins preload first, then `nodeArgs`; the run and the built-ins it loaded. */
async function runWithBuiltinsPreload(
  nodeArgs: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ run: PiRun; builtins: string[] }> {
  const preload = join(cwd, "record-builtins.cjs");
  const builtinsLog = join(cwd, "builtins.log");
  writeFileSync(preload, BUILTINS_PRELOAD);
  writeFileSync(builtinsLog, "");
  const run = await new Promise<PiRun>((resolve, reject) => {
    const child = spawn(process.execPath, ["--require", preload, ...nodeArgs], {
      cwd,
      env: { ...process.env, ...env, PI_TEST_BUILTINS_LOG: builtinsLog },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  const builtins = readFileSync(builtinsLog, "utf8")
    .split("\n")
    .filter((line) => line !== "");
  return { run, builtins };
}
