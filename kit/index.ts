/**
 * kit: the pure code that plugins (and hosts) share, one floor between contracts and plugins — file
 * system helpers (walk, globs, ignore rules, executables, model paths, the agent folder), output
 * truncation, the AI library (streaming, handoff, retry, estimates, request guards), the one
 * entry → model-context conversion, the session export page, the user's shell runs, the timers, child
 * processes and watchers a plugin generation owns, wire events and package-source rules. It
 * imports only the kernel's public API, contracts and npm packages; plugins reach it only through
 * "pi-host" (hosts/api.ts).
 */
export * from "./fs/agent-dir.js";
export * from "./fs/resolve-to-cwd.js";
export * from "./fs/glob.js";
export * from "./fs/ignore-rules.js";
export * from "./fs/walk.js";
export * from "./fs/executables.js";
export * from "./fs/file-lock.js";
export * from "./fs/resource-overrides.js";
export * from "./text/frontmatter.js";
export * from "./text/truncate.js";
export * from "./text/source-info.js";
export * from "./text/image-sequences.js";
export * from "./text/tool-ranker.js";
export * from "./ai/index.js";
export * from "./session/model-context.js";
export * from "./session/block-images.js";
export * from "./session/wire-events.js";
export * from "./session/wire-stream.js";
export * from "./session/session-change.js";
export * from "./shell/user-bash.js";
export * from "./shell/clipboard.js";
export * from "./shell/clipboard-read.js";
export * from "./process/owned.js";
export * from "./process/node-builtins.js";
export * from "./packages/package-filter.js";
export * from "./packages/package-source.js";
export * from "./session/export/markdown.js";
export * from "./session/export/page.js";
export * from "./session/export/export-file.js";
export * from "./session/session-tree.js";
export * from "./session/leaf-marker.js";
export * from "./session/session-ids.js";
export * from "./session/session-location.js";
export * from "./session/tree-store.js";
export * from "./session/fork-entries.js";
export * from "./session/check-entries.js";
export * from "./session/migrate-format.js";
export * from "./tools/index.js";
export * from "./remote/remote-target.js";
export * from "./remote/remote-choice.js";
