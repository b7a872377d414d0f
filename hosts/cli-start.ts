#!/usr/bin/env node
/**
 * The `pi` executable's first module. It turns on V8's compile cache before the CLI's own modules are
 * compiled, so every run after the first reads their compiled code from disk instead of compiling
 * ~2 MB of JavaScript again (Node ≥ 22.1; Node 20 has no such API and runs as before). The cache lives
 * where Node puts it by default (`$NODE_COMPILE_CACHE`, else the temp folder); `NODE_DISABLE_COMPILE_CACHE=1`
 * turns it off. It also stops V8's young generation from growing (young-generation.ts) before any of the
 * CLI's objects are made, and keeps V8's optimizing compiler off until the process has worked a while
 * (optimizing-compiler.ts). The CLI itself is hosts/cli.ts, imported only after these.
 */
import module from "node:module";
import { deferOptimizingCompiler } from "./optimizing-compiler.js";
import { keepYoungGenerationSmall } from "./young-generation.js";

/** `module.enableCompileCache` where this Node has it (22.1+); a cache that cannot be opened is no error. */
function enableCompileCache(): void {
  const enable = (module as { enableCompileCache?: () => unknown }).enableCompileCache;
  if (typeof enable !== "function") return;
  try {
    enable();
  } catch {
    // An unwritable cache folder only costs the speed-up.
  }
}

enableCompileCache();
keepYoungGenerationSmall();
deferOptimizingCompiler();
await import("./cli.js");
