/**
 * `pi [options] [@files...] [messages...]`: one run of the agent in a mode. The host picks the mode as pi
 * does (rpc > json > print > interactive), hands the per-run flags to plugins through the host
 * environment (whichever plugin owns a setting reads it there), boots the distribution, and hands
 * the chosen mode plugin the user's input and the process streams. Ctrl+C asks the mode to stop; a
 * second Ctrl+C exits at once.
 */
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { AgentSessionContract } from "../contracts/agent-session.js";
import { ModeContract, type Mode, type ModeInput } from "../contracts/mode.js";
import { SessionStoreContract, type SessionSummary } from "../contracts/session.js";
import { activeUi, UiContract, type UserInterface } from "../contracts/ui.js";
import type { Handle, OperationResult } from "../kernel/index.js";
import type { Kernel } from "./host-kernel.js";
import { UsageError, type CliArgs } from "./cli-flags.js";
import { composeForCli, EXIT_BAD_INPUT, type PackagePaths } from "./cli-compose.js";
import { unknownExtensionFlag } from "./cli-extension-flag-check.js";
import { buildModeInput, readPipedStdin } from "./cli-input.js";
import { prepareSession } from "./cli-session-flags.js";
import { checkCombinations, runFlags, sessionChoice } from "./cli-run-choices.js";
import { stopOnShutdownRequest } from "./shutdown-request.js";
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
  if ((mode === "rpc" || mode === "acp") && args.files.length > 0)
    throw new UsageError(`@file arguments are not supported in ${mode.toUpperCase()} mode; send files in prompts`);
  if (args.resume && mode !== "interactive") return listSessionsToResume(args, place);

  // RPC and ACP modes read their protocol from stdin; the other modes take the messages, @files and piped stdin.
  let input: ModeInput = { messages: [...args.positionals], images: [], compatEvents: args.compatEvents };
  if (mode !== "rpc" && mode !== "acp") {
    const stdin = mode === "interactive" ? undefined : await readPipedStdin(process.stdin);
    input = await buildModeInput({
      cwd: place.cwd,
      messages: args.positionals,
      files: args.files,
      stdin,
      compatEvents: args.compatEvents,
    });
    if (mode !== "interactive" && input.messages.length === 0)
      throw new UsageError(`nothing to send: give a message, an @file, or pipe text into stdin`);
  }

  const session = sessionChoice(args, place.cwd);
  if (args.session !== undefined && session.session !== undefined) refuseForeignFile(args.session, session.session);
  if (args.fork !== undefined && session.session !== undefined) {
    if (!existsSync(session.session)) throw new UsageError(`--fork ${args.fork}: no such session file`);
    refuseForeignFile(args.fork, session.session);
  }
  const composed = await composeForCli(args, runFlags(args, place, session), place, { configFiles: true });
  if (typeof composed === "number") return composed;
  const { kernel } = composed;
  // pi refuses an unknown flag at startup, once its extensions registered theirs.
  const extensionFlags = (args as CliArgs & { extensionFlags?: Record<string, unknown> }).extensionFlags ?? {};
  const unknownFlag = await unknownExtensionFlag(kernel, Object.keys(extensionFlags));
  if (unknownFlag !== undefined) {
    await kernel.shutdown();
    return fail(unknownFlag, EXIT_BAD_INPUT);
  }
  let watcher: { close(): Promise<void> } | undefined;
  let stopReloadRequests: (() => void) | undefined;
  let stopTrials: (() => void) | undefined;
  try {
    const wanted = session.partialId ?? args.sessionId;
    if (wanted !== undefined) {
      const exact = session.partialId === undefined;
      const opened = await openSessionById(kernel, wanted, place.cwd, session.sessionDir, exact);
      if (opened !== undefined) return fail(opened, EXIT_FAILURE);
    }
    const prepared = await prepareSession(kernel, args);
    if (prepared !== undefined) return fail(prepared, EXIT_FAILURE);
    const handle = kernel
      .useAll(ModeContract)
      .list()
      .find((h) => h.peek()?.name === mode);
    if (handle === undefined) {
      return fail(
        `no plugin provides the "${mode}" mode; enable one in plugins.json${mode === "interactive" ? ", or use -p" : ""}`,
        EXIT_BAD_INPUT,
      );
    }
    let whileRunning: ((control: RunControl) => Promise<void>) | undefined;
    if (args.resume) {
      const sessions = await sessionsOfThisFolder(kernel, place.cwd, session.sessionDir);
      if (typeof sessions === "string") return fail(sessions, EXIT_BAD_INPUT);
      if (sessions.length === 0) return fail(`no sessions for ${place.cwd} yet; start one with "pi"`, EXIT_FAILURE);
      whileRunning = (control) => pickSessionToResume(kernel, sessions, control);
    }
    const [{ reloadOnRequest, watchPlugins }, trials] = await Promise.all([
      import("./watch.js"),
      import("./load-trial.js"),
    ]);
    const { DEFAULT_TRIAL_DEADLINE_MS } = trials;
    stopTrials = trials.stopTrialWorker;
    const reportReload = (result: OperationResult): void => {
      if (result.error)
        process.stderr.write(
          `pi: reload of ${result.pluginId} failed: ${result.error.cause instanceof Error ? result.error.cause.message : String(result.error.cause)}\n`,
        );
    };
    // A reload evaluates new source in a worker first, so an endless loop at its top level cannot freeze this process.
    stopReloadRequests = reloadOnRequest(kernel, reportReload, DEFAULT_TRIAL_DEADLINE_MS);
    if (args.watch) {
      const started = await watchPlugins(kernel, {
        onReload: reportReload,
        trialDeadlineMs: DEFAULT_TRIAL_DEADLINE_MS,
      });
      watcher = started;
      if (started.folders().length > 0) trials.warmTrialWorker();
      else process.stderr.write(`pi: --watch: no plugin is loaded from a source file, so nothing is watched\n`);
    }
    return await runMode(handle, input, whileRunning, (stop) => stopOnShutdownRequest(kernel, mode, stop));
  } finally {
    await abortUnfinishedTurn(kernel);
    stopReloadRequests?.();
    await watcher?.close();
    stopTrials?.();
    await kernel.shutdown();
  }
}

/**
 * `--session <file>` on a file that is not a pi session (another program's JSONL, a text file) is refused
 * before anything starts, and the file is left untouched, as pi refuses it. A missing file is fine: a new
 * session starts there. An empty file, or one holding only the torn start of a header, is the store's to
 * repair.
 */
function refuseForeignFile(given: string, path: string): void {
  const firstLine = readFirstLine(path);
  if (firstLine === undefined) return;
  let header: unknown;
  try {
    header = JSON.parse(firstLine.text);
  } catch {
    if (firstLine.last && /^\s*\{\s*"type"\s*:\s*"session"/.test(firstLine.text)) return;
  }
  const record = header as { type?: unknown; id?: unknown } | null;
  if (record !== null && typeof record === "object" && record.type === "session" && typeof record.id === "string")
    return;
  throw new UsageError(
    `--session ${given}: not a pi session file (its first line is not a session header); give a session file or id, or a new path to start a session there`,
  );
}

/** How far into a file its first line is looked for: a session header is a few hundred bytes. */
const FIRST_LINE_LIMIT = 1024 * 1024;

/** The first non-blank line of a file (read in pieces, so a large session is not read whole); undefined when there is none or no file. */
function readFirstLine(path: string): { text: string; last: boolean } | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UsageError(`--session ${path}: cannot read it: ${(error as Error).message}`);
  }
  try {
    const chunks: Buffer[] = [];
    const chunk = Buffer.alloc(64 * 1024);
    let position = 0;
    for (;;) {
      const count = readSync(fd, chunk, 0, chunk.length, position);
      position += count;
      const ended = count === 0;
      if (!ended) chunks.push(Buffer.from(chunk.subarray(0, count)));
      // Decode only once a newline arrived (or the file ended, or a first line too long for any header).
      if (!ended && chunk.subarray(0, count).indexOf(0x0a) === -1 && position < FIRST_LINE_LIMIT) continue;
      const lines = Buffer.concat(chunks).toString("utf8").split("\n");
      const complete = ended || position >= FIRST_LINE_LIMIT ? lines : lines.slice(0, -1);
      const index = complete.findIndex((line) => line.trim() !== "");
      if (index >= 0) return { text: complete[index]!, last: ended && index === lines.length - 1 };
      if (ended || position >= FIRST_LINE_LIMIT) return undefined;
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--session ${path}: cannot read it: ${(error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** What a task running beside the mode may see and do: whether the mode still runs, and ask it to stop. */
interface RunControl {
  running(): boolean;
  stop(): void;
}

/**
 * Runs the mode with the process streams; Ctrl+C, SIGTERM or a closed stdout asks it to stop; a second
 * signal exits. `whileRunning` starts beside the mode (e.g. the `pi -r` session picker, which needs the
 * mode's user interface); its failure is printed, and the mode goes on.
 */
async function runMode(
  handle: Handle<Mode>,
  input: ModeInput,
  whileRunning?: (control: RunControl) => Promise<void>,
  listenForStop?: (stop: () => void) => () => void,
): Promise<number> {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const stopListening = listenForStop?.(() => stop());
  let modeRunning = true;
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
    const run = handle.api.run(input, {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      stopped,
    });
    const beside = whileRunning?.({ running: () => modeRunning, stop }).catch((error: unknown) => {
      process.stderr.write(`pi: ${error instanceof Error ? error.message : String(error)}\n`);
    });
    try {
      return await run;
    } finally {
      modeRunning = false;
      await beside;
    }
  } finally {
    stopListening?.();
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
    const state = session.api.state();
    busy = state.isStreaming || state.isCompacting;
  } catch {
    return;
  }
  if (!busy) return;
  let timer: NodeJS.Timeout | undefined;
  const settled = Promise.resolve()
    .then(() => session.api.abort())
    .then(() => session.api.idle())
    .catch((error: unknown) =>
      process.stderr.write(
        `pi: could not abort the current turn: ${error instanceof Error ? error.message : String(error)}\n`,
      ),
    );
  await Promise.race([settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, ABORT_GRACE_MS)))]);
  clearTimeout(timer);
}

/**
 * `--session <id>`: finds the session whose id starts with `partialId` — in this folder's sessions first,
 * then in every folder's, newest first, as pi does — and reconfigures the session plugin to open it.
 * `--session-id` (`exact`): this folder's session of that id, else none (the new session gets the id).
 */
async function openSessionById(
  kernel: Kernel,
  partialId: string,
  cwd: string,
  sessionDir: string | undefined,
  exact = false,
): Promise<string | undefined> {
  const store = kernel.use(SessionStoreContract);
  const flag = exact ? "--session-id" : "--session";
  if (!store.available)
    return `${flag} ${partialId}: no plugin provides the session store ("${SessionStoreContract.id}"); enable one in plugins.json`;
  const matches = (list: SessionSummary[]): SessionSummary[] =>
    list.filter((s) => (exact ? s.id === partialId : s.id.startsWith(partialId)));
  let found = matches(await store.api.list({ cwd, sessionDir }));
  if (found.length === 0 && exact) return undefined;
  if (found.length === 0) found = matches(await store.api.list({}));
  if (found.length === 0)
    return `no session id starts with "${partialId}"; list this folder's sessions with "pi -r" or pass a session file`;
  const owner = kernel
    .describe()
    .plugins.find((p) => p.status === "active" && p.provides.some((c) => c.contract === AgentSessionContract.id));
  if (owner === undefined) return `no plugin provides "${AgentSessionContract.id}"; enable one in plugins.json`;
  const entry = kernel.entries().find((e) => e.id === owner.id);
  const result = await kernel.configure(owner.id, {
    ...(entry?.config as Record<string, unknown> | undefined),
    session: found[0]!.path,
  });
  if (result.status !== "committed")
    return `could not open session ${found[0]!.path}: ${result.error ? String((result.error.cause as Error)?.message ?? result.error.cause) : result.status}`;
  return undefined;
}

/** This folder's sessions, newest first, or an error line when no plugin stores sessions. */
async function sessionsOfThisFolder(
  kernel: Kernel,
  cwd: string,
  sessionDir: string | undefined,
): Promise<SessionSummary[] | string> {
  const store = kernel.use(SessionStoreContract);
  if (!store.available)
    return `no plugin provides the session store ("${SessionStoreContract.id}"); enable one in plugins.json`;
  return store.api.list({ cwd, sessionDir });
}

/**
 * `pi -r` on a terminal, as pi opens its session selector: once the interactive mode's user interface is
 * up, a selection dialog (the `ui` contract's select) lists this folder's sessions; the chosen one is
 * opened in the running session, and dismissing the list ends the run, as cancelling pi's selector does.
 */
async function pickSessionToResume(kernel: Kernel, sessions: SessionSummary[], control: RunControl): Promise<void> {
  const ui = await waitForUserInterface(kernel, control);
  if (ui === undefined) return;
  const labels = sessionLabels(sessions);
  const choice = await ui.select("Resume a session", labels);
  if (!control.running()) return;
  if (choice === undefined) return control.stop();
  const chosen = sessions[labels.indexOf(choice)]!;
  await kernel.use(AgentSessionContract).api.switchSession(chosen.path);
}

/** The running mode's user interface, once it answers dialogs; undefined when the mode ended first or offers none. */
async function waitForUserInterface(kernel: Kernel, control: RunControl): Promise<UserInterface | undefined> {
  const providers = kernel.useAll(UiContract);
  while (control.running()) {
    const ui = activeUi(providers);
    if (ui.hasUI()) return ui;
    await new Promise((resolve) => setTimeout(resolve, UI_POLL_MS));
  }
  return undefined;
}

/** How often `pi -r` looks whether the interactive mode's user interface is up. */
const UI_POLL_MS = 20;

/** One distinct line per session: name or first message, last change, message count (and the end of the id, its random part, when two lines match). */
function sessionLabels(sessions: SessionSummary[]): string[] {
  const base = sessions.map(
    (s) =>
      `${(s.name ?? s.firstMessage).replace(/\s+/g, " ").trim().slice(0, 60) || "(empty)"} · ${s.modified.replace("T", " ").slice(0, 16)} · ${s.messageCount} msgs`,
  );
  return base.map((label, i) =>
    base.indexOf(label) === base.lastIndexOf(label) ? label : `${label} · ${sessions[i]!.id.slice(-8)}`,
  );
}

/** `pi -r` when the run is not interactive (no terminal): the folder's sessions, and how to open one. */
async function listSessionsToResume(args: CliArgs, place: RunPlace): Promise<number> {
  const session = sessionChoice(args, place.cwd);
  const composed = await composeForCli(args, runFlags(args, place, session), place, { configFiles: true });
  if (typeof composed === "number") return composed;
  const { kernel } = composed;
  try {
    const sessions = await sessionsOfThisFolder(kernel, place.cwd, session.sessionDir);
    if (typeof sessions === "string") return fail(sessions, EXIT_BAD_INPUT);
    if (sessions.length === 0) return fail(`no sessions for ${place.cwd} yet`, EXIT_FAILURE);
    process.stdout.write(formatSessions(sessions));
    process.stderr.write(
      `pi: pick one and run "pi --session <id>", or run "pi -r" on a terminal to choose from a list\n`,
    );
    return 0;
  } finally {
    await kernel.shutdown();
  }
}

/** An aligned table, newest first: id, last change, message count, name or first message. */
function formatSessions(sessions: SessionSummary[]): string {
  const rows = [
    ["ID", "MODIFIED", "MESSAGES", "NAME / FIRST MESSAGE"],
    ...sessions.map((s) => [
      s.id,
      s.modified.replace("T", " ").slice(0, 16),
      String(s.messageCount),
      (s.name ?? s.firstMessage).replace(/\s+/g, " ").slice(0, 60),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n")}\n`;
}

function fail(message: string, code: number): number {
  process.stderr.write(`pi: ${message}\n`);
  return code;
}
