/**
 * `pi [options] [@files...] [messages...]`: one run of the agent in a mode. The host picks the mode as pi
 * does (rpc > json > print > interactive), turns the per-run flags into a command-line configuration
 * layer for the plugins that own them (agent-session, resources, auth), boots the distribution, and hands
 * the chosen mode plugin the user's input and the process streams. Ctrl+C asks the mode to stop; a
 * second Ctrl+C exits at once.
 */
import { resolve } from "node:path";
import { AgentSessionContract } from "../contracts/agent-session.js";
import { ModeContract, type Mode, type ModeInput } from "../contracts/mode.js";
import { SessionStoreContract, type SessionSummary } from "../contracts/session.js";
import type { Handle, Kernel, OperationResult } from "../kernel/index.js";
import { UsageError, type CliArgs } from "./cli-flags.js";
import { composeForCli, EXIT_BAD_INPUT, type PackagePaths } from "./cli-compose.js";
import { buildModeInput, readPipedStdin } from "./cli-input.js";
import type { ConfigOverride } from "./compose.js";
import { expandHome } from "./paths.js";
import { keepShortRunsOnBaselineWasm } from "./wasm-tiering.js";

const EXIT_FAILURE = 1;
/** How a process killed by a second Ctrl+C exits, as shells expect (128 + SIGINT). */
const EXIT_INTERRUPTED = 130;
/** How long a stop signal may take to end the process cleanly before it exits regardless. */
const STOP_LIMIT_MS = 10_000;
/** How long leaving a run waits for an aborted turn to save its partial answer. */
const ABORT_GRACE_MS = 2_000;

/** The mode a run uses, by pi's precedence. */
export type ModeName = "rpc" | "acp" | "json" | "print" | "interactive";

/** Where this run happens. */
export interface RunPlace {
  agentDir: string;
  cwd: string;
  paths: PackagePaths;
  env: NodeJS.ProcessEnv;
}

/** pi's rule: --mode rpc (or acp), else --mode json, else print when asked or when stdin/stdout is not a terminal. */
export function chooseMode(args: CliArgs, stdinIsTTY: boolean, stdoutIsTTY: boolean): ModeName {
  if (args.mode === "rpc") return "rpc";
  if (args.mode === "acp") return "acp";
  if (args.mode === "json") return "json";
  if (args.print || args.mode === "text" || !stdinIsTTY || !stdoutIsTTY) return "print";
  return "interactive";
}

/** Runs the agent; resolves with the exit code. */
export async function runAgentCommand(args: CliArgs, place: RunPlace): Promise<number> {
  checkCombinations(args);
  keepShortRunsOnBaselineWasm();
  const mode = chooseMode(args, process.stdin.isTTY === true, process.stdout.isTTY === true);
  if ((mode === "rpc" || mode === "acp") && args.files.length > 0) throw new UsageError(`@file arguments are not supported in ${mode.toUpperCase()} mode; send files in prompts`);
  if (args.resume) return listSessionsToResume(args, place);

  // RPC and ACP modes read their protocol from stdin; the other modes take the messages, @files and piped stdin.
  let input: ModeInput = { messages: [...args.positionals], images: [], compatEvents: args.compatEvents };
  if (mode !== "rpc" && mode !== "acp") {
    const stdin = mode === "interactive" ? undefined : await readPipedStdin(process.stdin);
    input = await buildModeInput({ cwd: place.cwd, messages: args.positionals, files: args.files, stdin, compatEvents: args.compatEvents });
    if (mode !== "interactive" && input.messages.length === 0) throw new UsageError(`nothing to send: give a message, an @file, or pipe text into stdin`);
  }

  const session = sessionChoice(args, place.cwd);
  const composed = await composeForCli(args, runOverrides(args, place, session), place);
  if (typeof composed === "number") return composed;
  const { kernel } = composed;
  let watcher: { close(): Promise<void> } | undefined;
  let stopReloadRequests: (() => void) | undefined;
  let stopTrials: (() => void) | undefined;
  try {
    if (session.partialId !== undefined) {
      const opened = await openSessionById(kernel, session.partialId, place.cwd, session.sessionDir);
      if (opened !== undefined) return fail(opened, EXIT_FAILURE);
    }
    const handle = kernel
      .useAll(ModeContract)
      .list()
      .find((h) => h.peek()?.name === mode);
    if (handle === undefined) {
      return fail(mode === "interactive" ? "interactive mode needs the tui plugin; use -p" : `no plugin provides the "${mode}" mode; enable "mode-${mode}" in plugins.json`, EXIT_BAD_INPUT);
    }
    const [{ reloadOnRequest, watchPlugins }, trials] = await Promise.all([import("./watch.js"), import("./load-trial.js")]);
    const { DEFAULT_TRIAL_DEADLINE_MS } = trials;
    stopTrials = trials.stopTrialWorker;
    const reportReload = (result: OperationResult): void => {
      if (result.error) process.stderr.write(`pi: reload of ${result.pluginId} failed: ${result.error.cause instanceof Error ? result.error.cause.message : String(result.error.cause)}\n`);
    };
    // A reload evaluates new source in a worker first, so an endless loop at its top level cannot freeze this process.
    stopReloadRequests = reloadOnRequest(kernel, reportReload, DEFAULT_TRIAL_DEADLINE_MS);
    if (args.watch) {
      const started = await watchPlugins(kernel, { onReload: reportReload, trialDeadlineMs: DEFAULT_TRIAL_DEADLINE_MS });
      watcher = started;
      if (started.folders().length > 0) trials.warmTrialWorker();
      else process.stderr.write(`pi: --watch: no plugin is loaded from a source file, so nothing is watched\n`);
    }
    return await runMode(handle, input);
  } finally {
    await abortUnfinishedTurn(kernel);
    stopReloadRequests?.();
    await watcher?.close();
    stopTrials?.();
    await kernel.shutdown();
  }
}

/** Runs the mode with the process streams; Ctrl+C, SIGTERM or a closed stdout asks it to stop; a second signal exits. */
async function runMode(handle: Handle<Mode>, input: ModeInput): Promise<number> {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let signals = 0;
  const onSignal = (): void => {
    signals++;
    if (signals > 1) process.exit(EXIT_INTERRUPTED);
    stop();
    // The mode stops and the plugins retire; should that hang, the process still ends, saying why.
    setTimeout(() => {
      process.stderr.write(`pi: stopping took over ${STOP_LIMIT_MS / 1000} s; exiting without waiting any longer\n`);
      process.exit(EXIT_FAILURE);
    }, STOP_LIMIT_MS).unref();
  };
  // A reader that went away (`pi --mode json ... | head`) stops the run instead of crashing the process.
  // The listener stays for the rest of the process: writes already queued fail after the run, too.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    stop();
  });
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await handle.call("run", input, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, stopped });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/**
 * Leaving a run mid-answer (a double Ctrl+C or /quit in the TUI, a stop signal) aborts the turn instead
 * of waiting for it: the abort reaches the provider's request, the partial answer is saved as an aborted
 * assistant message, and only then do the plugins retire, so the session file is whole and the exit is prompt.
 */
async function abortUnfinishedTurn(kernel: Kernel): Promise<void> {
  const session = kernel.use(AgentSessionContract);
  if (!session.available) return;
  let busy: boolean;
  try {
    const state = session.call("state");
    busy = state.isStreaming || state.isCompacting;
  } catch {
    return;
  }
  if (!busy) return;
  let timer: NodeJS.Timeout | undefined;
  const settled = Promise.resolve()
    .then(() => session.call("abort"))
    .then(() => session.call("idle"))
    .catch((error: unknown) => process.stderr.write(`pi: could not abort the current turn: ${error instanceof Error ? error.message : String(error)}\n`));
  await Promise.race([settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, ABORT_GRACE_MS)))]);
  clearTimeout(timer);
}

/** Flags that contradict each other are refused before anything starts. */
function checkCombinations(args: CliArgs): void {
  const sessionFlags = [args.continue && "--continue", args.resume && "--resume", args.session !== undefined && "--session", args.noSession && "--no-session"].filter(
    (f): f is string => typeof f === "string",
  );
  if (sessionFlags.length > 1) throw new UsageError(`${sessionFlags.join(" and ")} cannot be combined; choose one`);
  if (args.tools !== undefined && args.noTools) throw new UsageError(`--tools and --no-tools cannot be combined; choose one`);
  if (args.session === "") throw new UsageError(`--session is empty; give a session file or id`);
  for (const [flag, value] of [["--model", args.model], ["--provider", args.provider], ["--session-dir", args.sessionDir]] as const) {
    if (value === "") throw new UsageError(`${flag} is empty; give a value or leave the flag out`);
  }
}

/** The agent-session `session` choice, and a partial id to look up once the session store runs. */
interface SessionChoice {
  session: string | undefined;
  sessionDir: string | undefined;
  partialId: string | undefined;
}

function sessionChoice(args: CliArgs, cwd: string): SessionChoice {
  const dir = args.sessionDir ?? (process.env.PI_CODING_AGENT_SESSION_DIR || undefined);
  const sessionDir = dir === undefined ? undefined : resolve(cwd, expandHome(dir));
  if (args.noSession) return { session: "none", sessionDir, partialId: undefined };
  if (args.continue) return { session: "continue", sessionDir, partialId: undefined };
  const value = args.session;
  if (value === undefined) return { session: undefined, sessionDir, partialId: undefined };
  // pi's rule: a value with a slash or ending in .jsonl is a file; anything else is the start of a session id.
  if (value.includes("/") || value.includes("\\") || value.endsWith(".jsonl")) return { session: resolve(cwd, expandHome(value)), sessionDir, partialId: undefined };
  return { session: undefined, sessionDir, partialId: value };
}

/** The command-line configuration layer: each per-run flag goes to the plugin that owns the setting. */
function runOverrides(args: CliArgs, place: RunPlace, session: SessionChoice): ConfigOverride[] {
  const overrides: ConfigOverride[] = [];
  const sessionConfig: Record<string, unknown> = {};
  const sessionFlags: string[] = [];
  const set = (flag: string, key: string, value: unknown): void => {
    if (value === undefined) return;
    sessionConfig[key] = value;
    if (!sessionFlags.includes(flag)) sessionFlags.push(flag);
  };
  set(args.noSession ? "--no-session" : args.continue ? "--continue" : "--session", "session", session.session);
  set("--session-dir", "sessionDir", session.sessionDir);
  set("--model", "model", args.model);
  set("--provider", "provider", args.provider);
  set("--thinking", "thinking", args.thinking);
  set(args.noTools ? "--no-tools" : "--tools", "tools", args.noTools ? [] : args.tools);
  set("--system-prompt", "systemPrompt", args.systemPrompt);
  set("--append-system-prompt", "appendSystemPrompt", args.appendSystemPrompt.length > 0 ? args.appendSystemPrompt : undefined);
  if (sessionFlags.length > 0) overrides.push({ id: "agent-session", flag: sessionFlags.join(", "), config: { cwd: place.cwd, ...sessionConfig } });

  const resources: Record<string, unknown> = {};
  const resourceFlags: string[] = [];
  const setResource = (flag: string, key: string, value: unknown, given: boolean): void => {
    if (!given) return;
    resources[key] = value;
    resourceFlags.push(flag);
  };
  setResource("--skill", "skillPaths", args.skills, args.skills.length > 0);
  setResource("--no-skills", "noSkills", true, args.noSkills);
  setResource("--prompt-template", "templatePaths", args.promptTemplates, args.promptTemplates.length > 0);
  setResource("--no-prompt-templates", "noTemplates", true, args.noPromptTemplates);
  setResource("--no-context-files", "noContextFiles", true, args.noContextFiles);
  if (resourceFlags.length > 0) overrides.push({ id: "resources", flag: resourceFlags.join(", "), config: resources });

  if (args.apiKey !== undefined) overrides.push({ id: "auth", flag: "--api-key", config: { apiKey: args.apiKey, ...(args.provider !== undefined ? { apiKeyProvider: args.provider } : {}) } });
  if (args.extensions.length > 0 || args.noExtensions) {
    const extensionFlags = [...(args.extensions.length > 0 ? ["-e"] : []), ...(args.noExtensions ? ["--no-extensions"] : [])].join(", ");
    const config = { commandLineExtensions: args.extensions.map((path) => resolve(place.cwd, expandHome(path))), ...(args.noExtensions && { noExtensions: true }) };
    overrides.push({ id: "pi-extensions", flag: extensionFlags, config });
  }
  return overrides;
}

/**
 * `--session <id>`: finds the session whose id starts with `partialId` — in this folder's sessions first,
 * then in every folder's, newest first, as pi does — and reconfigures the session plugin to open it.
 * Returns an error line, or undefined when the session is set.
 */
async function openSessionById(kernel: Kernel, partialId: string, cwd: string, sessionDir: string | undefined): Promise<string | undefined> {
  const store = kernel.use(SessionStoreContract);
  if (!store.available) return `--session ${partialId}: no plugin provides the session store; enable "session-jsonl" in plugins.json`;
  const matches = (list: SessionSummary[]): SessionSummary[] => list.filter((s) => s.id.startsWith(partialId));
  let found = matches(await store.call("list", { cwd, sessionDir }));
  if (found.length === 0) found = matches(await store.call("list", {}));
  if (found.length === 0) return `no session id starts with "${partialId}"; list this folder's sessions with "pi -r" or pass a session file`;
  const owner = kernel.describe().plugins.find((p) => p.status === "active" && p.provides.some((c) => c.contract === AgentSessionContract.id));
  if (owner === undefined) return `no plugin provides "${AgentSessionContract.id}"; enable "agent-session" in plugins.json`;
  const entry = kernel.entries().find((e) => e.id === owner.id);
  const result = await kernel.configure(owner.id, { ...(entry?.config as Record<string, unknown> | undefined), session: found[0]!.path });
  if (result.status !== "committed") return `could not open session ${found[0]!.path}: ${result.error ? String((result.error.cause as Error)?.message ?? result.error.cause) : result.status}`;
  return undefined;
}

/** `pi -r` without the interactive picker: the folder's sessions, and how to open one. */
async function listSessionsToResume(args: CliArgs, place: RunPlace): Promise<number> {
  const session = sessionChoice(args, place.cwd);
  const composed = await composeForCli(args, [], place);
  if (typeof composed === "number") return composed;
  const { kernel } = composed;
  try {
    const store = kernel.use(SessionStoreContract);
    if (!store.available) return fail(`no plugin provides the session store; enable "session-jsonl" in plugins.json`, EXIT_BAD_INPUT);
    const sessions = await store.call("list", { cwd: place.cwd, sessionDir: session.sessionDir });
    if (sessions.length === 0) return fail(`no sessions for ${place.cwd} yet`, EXIT_FAILURE);
    process.stdout.write(formatSessions(sessions));
    process.stderr.write(`pi: pick one and run "pi --session <id>" (choosing interactively needs the tui plugin)\n`);
    return 0;
  } finally {
    await kernel.shutdown();
  }
}

/** An aligned table, newest first: id, last change, message count, name or first message. */
function formatSessions(sessions: SessionSummary[]): string {
  const rows = [
    ["ID", "MODIFIED", "MESSAGES", "NAME / FIRST MESSAGE"],
    ...sessions.map((s) => [s.id, s.modified.replace("T", " ").slice(0, 16), String(s.messageCount), (s.name ?? s.firstMessage).replace(/\s+/g, " ").slice(0, 60)]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n") + "\n";
}

function fail(message: string, code: number): number {
  process.stderr.write(`pi: ${message}\n`);
  return code;
}
