/**
 * The QuickJS WebAssembly module, loaded on the first codemode run only (quickjs-emscripten-core with
 * the release-sync wasm variant — not the 9 MB umbrella package), so a session that never runs a
 * script never pays for it. A module that a run left unusable (the host's own stack overflowed inside
 * WebAssembly) is dropped and a fresh one is loaded for the next run.
 */
import type { QuickJSSyncVariant, QuickJSWASMModule } from "quickjs-emscripten-core";

let loading: Promise<QuickJSWASMModule> | undefined;
let loaded: QuickJSWASMModule | undefined;

/** The shared module, loaded once. */
export function loadQuickJs(): Promise<QuickJSWASMModule> {
  loading ??= (async () => {
    const [{ newQuickJSWASMModuleFromVariant, newVariant }, release] = await Promise.all([import("quickjs-emscripten-core"), import("@jitl/quickjs-wasmfile-release-sync")]);
    // Emscripten prints an aborted module's assertion to stderr, over the user's terminal; a module
    // that aborts is discarded here and its run reported as a tool error instead.
    // (The variant package's types describe its CommonJS build; under ESM `default` is the variant itself.)
    const base = release.default as unknown as QuickJSSyncVariant;
    const quiet = newVariant(base, { emscriptenModule: { printErr: () => {} } as never });
    loaded = await newQuickJSWASMModuleFromVariant(quiet);
    return loaded;
  })().catch((error: unknown) => {
    loading = undefined;
    throw new Error(`the QuickJS sandbox (quickjs-emscripten-core) could not be loaded: ${(error as Error).message}`);
  });
  return loading;
}

/** Forgets a module that can no longer be trusted; the next run loads a new one. */
export function discardQuickJs(module: QuickJSWASMModule): void {
  if (loaded !== module) return;
  loaded = undefined;
  loading = undefined;
}
