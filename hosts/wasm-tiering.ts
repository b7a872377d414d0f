/**
 * Why a one-shot `pi -p` used to linger after its answer. Node's `fetch` (undici, which every provider
 * SDK uses) parses HTTP with llhttp compiled to WebAssembly. V8 starts wasm on its baseline compiler
 * (Liftoff) and re-compiles functions that got hot with TurboFan on a background thread; llhttp's parser
 * is one huge function, so after the first streamed answer TurboFan spends ~80 ms of CPU on it, and a
 * process cannot exit until background compiles finish: `pi -p` waited 100–300 ms (2 busy cores) for code
 * it would never run. Profiled in bench/RESULTS.md (cli).
 */
import { setFlagsFromString } from "node:v8";

/**
 * V8's budget for dynamic tier-up (roughly "bytes of wasm code executed per function"): 1.8 MB by
 * default, which llhttp exhausts within the first answer. At 100 MB, the few hundred KB of HTTP a run
 * parses stay on Liftoff, while wasm that is really hot for long — QuickJS running a big codemode
 * script, or a session streaming tens of MB — still reaches TurboFan.
 */
const WASM_TIERING_BUDGET = 100_000_000;

/** Raises the tier-up budget; call before the first wasm module (the first `fetch`) is compiled. */
export function keepShortRunsOnBaselineWasm(): void {
  setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
}
