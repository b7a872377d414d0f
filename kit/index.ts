/**
 * kit: the pure code that contracts' users share — file-system helpers the tools and config plugins
 * need alike. It sits between contracts and plugins: it imports only the kernel's public API, contracts
 * and npm packages, and plugins reach it only through "pi-host" (hosts/api.ts re-exports this module).
 */
export * from "./fs/agent-dir.js";
export * from "./fs/resolve-to-cwd.js";
export * from "./fs/glob.js";
export * from "./fs/ignore-rules.js";
export * from "./fs/walk.js";
export * from "./fs/executables.js";
export * from "./text/truncate.js";
export * from "./ai/index.js";
export * from "./session/model-context.js";
export * from "./session/wire-events.js";
export * from "./packages/package-source.js";
