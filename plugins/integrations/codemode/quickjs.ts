/**
 * Where the QuickJS sandbox's code comes from, found on the first codemode run only: the CommonJS
 * entries of quickjs-emscripten-core and of the release-sync wasm variant (not the 9 MB umbrella
 * package), which the sandbox worker loads, and the variant's WebAssembly module, compiled once here
 * and handed to every worker so a run does not recompile it. The main thread never loads QuickJS
 * itself: scripts run in workers (sandbox.ts).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** What a sandbox worker needs to start QuickJS. */
export interface QuickJsAssets {
  corePath: string;
  variantPath: string;
  wasmModule: WebAssembly.Module;
}

let loading: Promise<QuickJsAssets> | undefined;

/** The assets, resolved and compiled once per process. */
export function loadQuickJsAssets(): Promise<QuickJsAssets> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const corePath = require.resolve("quickjs-emscripten-core");
    const variantPath = require.resolve("@jitl/quickjs-wasmfile-release-sync");
    const wasmModule = await WebAssembly.compile(await readFile(join(dirname(variantPath), "emscripten-module.wasm")));
    return { corePath, variantPath, wasmModule };
  })().catch((error: unknown) => {
    loading = undefined;
    throw new Error(`the QuickJS sandbox (quickjs-emscripten-core) could not be loaded: ${(error as Error).message}`);
  });
  return loading;
}
