/**
 * Node built-ins that a cold `pi -p` turn does not need, loaded the first time a function asks for them.
 * A top-level `import ... from "node:child_process"` in any module of a loaded chunk makes every run load
 * that built-in and what it requires (child_process brings dgram, net's socket list and more); each one
 * costs resident memory whether used or not (bench/RESULTS.md, 2026-12-04 "fewer built-ins"). These
 * accessors are synchronous (`process.getBuiltinModule`, Node >= 20.16), so the code that spawns or
 * hashes stays as it reads; only the module is fetched where it is used. The type-only imports stay at
 * the top of each file, since they cost nothing at run time.
 */

/** `node:child_process`, for the functions that start a process. */
export function childProcess(): typeof import("node:child_process") {
  return process.getBuiltinModule("node:child_process");
}

/** `node:crypto`, for the functions that hash or need random bytes. */
export function nodeCrypto(): typeof import("node:crypto") {
  return process.getBuiltinModule("node:crypto");
}

/** `node:readline`, for the functions that read a stream line by line. */
export function nodeReadline(): typeof import("node:readline") {
  return process.getBuiltinModule("node:readline");
}
