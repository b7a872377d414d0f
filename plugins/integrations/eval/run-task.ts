/**
 * One run of one task: a fresh temp folder with a copy of the fixture, the built `pi` spawned there in
 * JSON mode with the task's prompt on stdin (the same distribution and agent a user's `pi -p` gets, in
 * its own process, so runs cannot leak state into each other), then the checks on what it left behind.
 * The temp folder is removed afterwards unless asked to keep it (then with the run's session in it).
 */
import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type CheckResult, runChecks } from "./checks.js";
import { type DocSet, type DocsAs, placeDocs } from "./doc-set.js";
import { endGroup } from "./process-group.js";
import { RunEventReader, type RunMetrics } from "./run-events.js";
import type { EvalTask } from "./suite.js";

/** With or without the doc set. */
export type Variant = "no-docs" | "docs";

/** How to start pi: a program and the arguments before pi's own. */
export interface PiLauncher {
  command: string;
  args: string[];
}

/** What every run of an eval shares. */
export interface RunSettings {
  launcher: PiLauncher;
  /** `--model`, passed on to pi. */
  model: string | undefined;
  /** Seconds a run may take when the task sets none. */
  timeout: number;
  /** The doc set of the "docs" variant, and how it reaches the model. */
  docs: DocSet | undefined;
  docsAs: DocsAs;
  /** Arguments after `--`, passed to every pi run. */
  piArgs: string[];
  /** Keep each run's temp folder and session (their paths are in the report). */
  keep: boolean;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

/** The outcome of one run. `error` means the run itself failed (timeout, crash, provider error). */
export interface RunResult extends RunMetrics {
  task: string;
  variant: Variant;
  /** 1-based, of `--runs`. */
  run: number;
  status: "pass" | "fail" | "error";
  checks: CheckResult[];
  /** Wall time of the agent run, in seconds. */
  seconds: number;
  /** pi's exit code (null when it was ended). */
  exitCode: number | null;
  /** The working folder, when kept. */
  folder: string | undefined;
  /** The folder holding the run's session file, when kept. */
  sessionDir: string | undefined;
}

/** Lines of pi's stderr kept for an error's message. */
const STDERR_TAIL = 2_000;

/** Runs one task once in one variant. */
export async function runTask(
  task: EvalTask,
  variant: Variant,
  run: number,
  settings: RunSettings,
): Promise<RunResult> {
  const root = await mkdtemp(join(tmpdir(), "pi-eval-"));
  const folder = join(root, "work");
  try {
    let args: string[];
    try {
      args = await prepareRun(task, variant, settings, root, folder);
    } catch (error) {
      // A fixture that cannot be copied fails this run, not the eval.
      return setupError(task, variant, run, `cannot prepare the run's folder: ${(error as Error).message}`);
    }
    const started = performance.now();
    const agent = await spawnPi(settings.launcher.command, args, {
      cwd: folder,
      prompt: task.prompt,
      timeout: task.timeout ?? settings.timeout,
      env: settings.env,
      signal: settings.signal,
    });
    const seconds = (performance.now() - started) / 1000;
    // An interrupted run is not judged: its checks would only slow the way out.
    const checks = settings.signal.aborted
      ? []
      : await runChecks(task.checks, {
          folder,
          answer: agent.metrics.answer,
          taskDir: dirname(task.file),
          signal: settings.signal,
        });
    const failure = runFailure(agent) ?? (settings.signal.aborted ? "interrupted" : undefined);
    const status = failure !== undefined ? "error" : checks.every((c) => c.passed) ? "pass" : "fail";
    return {
      task: task.name,
      variant,
      run,
      ...agent.metrics,
      error: failure,
      status,
      checks,
      seconds,
      exitCode: agent.exitCode,
      folder: settings.keep ? folder : undefined,
      sessionDir: settings.keep ? join(root, "sessions") : undefined,
    };
  } finally {
    if (!settings.keep) await rm(root, { recursive: true, force: true });
  }
}

/** Copies the fixture into `folder` and places the docs; returns pi's arguments for the run. */
async function prepareRun(
  task: EvalTask,
  variant: Variant,
  settings: RunSettings,
  root: string,
  folder: string,
): Promise<string[]> {
  if (task.fixture !== undefined) await cp(task.fixture, folder, { recursive: true, verbatimSymlinks: true });
  else await mkdir(folder);
  // A kept run keeps its session too, beside the working folder, to open with `pi --session <file>`.
  const session = settings.keep ? ["--session-dir", join(root, "sessions")] : ["--no-session"];
  const args = [...settings.launcher.args, "--mode", "json", ...session];
  if (settings.model !== undefined) args.push("--model", settings.model);
  if (variant === "docs" && settings.docs !== undefined)
    args.push(...(await placeDocs(settings.docs, settings.docsAs, root)));
  args.push(...settings.piArgs);
  return args;
}

/** The result of a run that never started. */
function setupError(task: EvalTask, variant: Variant, run: number, error: string): RunResult {
  return {
    task: task.name,
    variant,
    run,
    status: "error",
    error,
    checks: [],
    turns: 0,
    tokens: 0,
    cost: 0,
    answer: "",
    ended: false,
    model: undefined,
    seconds: 0,
    exitCode: null,
    folder: undefined,
    sessionDir: undefined,
  };
}

interface AgentRun {
  metrics: RunMetrics;
  exitCode: number | null;
  /** Why pi was ended, when it was. */
  ended: string | undefined;
  stderr: string;
}

/** Why a finished agent run counts as an error, or undefined when it ran to its end. */
function runFailure(agent: AgentRun): string | undefined {
  if (agent.ended !== undefined) return agent.ended;
  if (agent.metrics.error !== undefined) return agent.metrics.error;
  if (agent.exitCode !== 0) {
    const last = agent.stderr.trim().split("\n").at(-1)?.trim();
    return `pi exited ${agent.exitCode ?? "on a signal"}${last ? `: ${last}` : ""}`;
  }
  if (!agent.metrics.ended) return "pi exited before the agent finished";
  return undefined;
}

/** Spawns pi in its own process group with the prompt on stdin; a timeout or an abort ends the group. */
function spawnPi(
  command: string,
  args: string[],
  options: { cwd: string; prompt: string; timeout: number; env: NodeJS.ProcessEnv; signal: AbortSignal },
): Promise<AgentRun> {
  return new Promise((done) => {
    const reader = new RunEventReader();
    let stderr = "";
    let ended: string | undefined;
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => reader.push(chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    // pi may exit before reading its stdin (a bad flag); that is its error to report, not a crash here.
    child.stdin.on("error", () => {});
    child.stdin.end(options.prompt);
    const end = (why: string): void => {
      if (ended !== undefined) return;
      ended = why;
      endGroup(child);
    };
    const timer = setTimeout(() => end(`timed out after ${options.timeout} s`), options.timeout * 1000);
    const abort = (): void => end("interrupted");
    if (options.signal.aborted) abort();
    else options.signal.addEventListener("abort", abort, { once: true });
    const finish = (exitCode: number | null): void => {
      clearTimeout(timer);
      options.signal.removeEventListener("abort", abort);
      done({ metrics: reader.finish(), exitCode, ended, stderr });
    };
    child.on("error", (error) => {
      ended ??= `cannot start ${command}: ${error.message}`;
      finish(null);
    });
    child.on("close", (code) => finish(code));
  });
}
