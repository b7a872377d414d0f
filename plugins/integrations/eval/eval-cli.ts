/**
 * `pi eval <suite>`: reads the suite (all of it, before any agent runs), runs every task in each variant
 * the given number of times, one after another, prints the results table on stdout (progress on
 * stderr) and writes the JSON report. Exit 0 when every run passed, 1 when a check failed or a run
 * errored, 2 for a broken suite or bad options, with a one-line message naming the file and field.
 */
import { existsSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { CliCommandIo } from "pi-host";
import { DOCS_AS, type DocSet, type DocsAs, readDocSet } from "./doc-set.js";
import { buildReport, formatReport } from "./report.js";
import { type PiLauncher, type RunResult, runTask, type Variant } from "./run-task.js";
import { loadSuite, SuiteError } from "./suite.js";

/** `pi eval --help`. */
export const EVAL_USAGE = `Usage:
  pi eval <suite> [options] [-- <pi flags>...]

Runs every task of a suite folder through the agent and judges its checks: each run is the built pi in
JSON mode (no session saved) in a fresh temp copy of the task's fixture, with the task's prompt. Prints a
results table; exits 0 when every run passed, 1 when a check failed or a run errored, 2 for a broken
suite or bad options. The suite format is in docs/eval.md.

Options:
  --model <provider/id>   Model of every run (default: pi's default model)
  --docs <folder>         Run each task twice, without and with this doc set
  --docs-as <how>         context (default): the doc set in the system prompt; skill: a skill
                          the agent reads when it chooses to
  --runs <n>              Runs of each task and variant (default 1)
  --json <file>           Write the JSON report to this file
  --timeout <seconds>     Time limit of one run when its task sets none (default 600)
  --keep                  Keep each run's temp folder and list it under the table
  -- <pi flags>           Passed to every run, e.g. -- --tools read,edit,write
`;

/** The eval's options, parsed. */
export interface EvalOptions {
  suite: string;
  model: string | undefined;
  docs: string | undefined;
  docsAs: DocsAs;
  runs: number;
  json: string | undefined;
  timeout: number;
  keep: boolean;
  piArgs: string[];
}

/** A bad command line (exit 2). */
class UsageError extends Error {}

/** pi flags every run sets itself (JSON mode, no saved session), refused after `--`. */
const RUN_OWNED = [
  "-p",
  "--print",
  "--mode",
  "--no-session",
  "--session",
  "--session-dir",
  "--session-id",
  "--fork",
  "--continue",
  "-c",
  "--resume",
  "-r",
];

const VALUE_FLAGS = new Set(["--model", "--docs", "--docs-as", "--runs", "--json", "--timeout"]);

/** Parses `pi eval` arguments; throws UsageError with what to do. */
export function parseEvalArgs(args: readonly string[]): EvalOptions {
  const cut = args.indexOf("--");
  const own = cut === -1 ? args : args.slice(0, cut);
  const piArgs = cut === -1 ? [] : args.slice(cut + 1);
  const values = new Map<string, string>();
  const positionals: string[] = [];
  let keep = false;
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]!;
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq !== -1 ? arg.slice(0, eq) : arg;
    if (VALUE_FLAGS.has(name)) {
      const value = eq !== -1 && name !== arg ? arg.slice(eq + 1) : own[++i];
      if (value === undefined || value === "") throw new UsageError(`${name} needs a value; see "pi eval --help"`);
      values.set(name, value);
    } else if (arg === "--keep") keep = true;
    else if (arg.startsWith("-")) throw new UsageError(`unknown option ${arg}; see "pi eval --help"`);
    else positionals.push(arg);
  }
  if (positionals.length === 0) throw new UsageError(`give the suite folder: pi eval <suite>; see "pi eval --help"`);
  if (positionals.length > 1)
    throw new UsageError(`one suite at a time; remove "${positionals[1]}" (pi flags go after --)`);
  const number = (flag: string, fallback: number, whole: boolean): number => {
    const text = values.get(flag);
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0 || (whole && !Number.isInteger(n)))
      throw new UsageError(`${flag} must be a ${whole ? "whole number" : "number"} above 0; got "${text}"`);
    return n;
  };
  const owned = piArgs.find((arg) => RUN_OWNED.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));
  if (owned !== undefined)
    throw new UsageError(`${owned} cannot be passed to the runs: pi eval sets the mode and the session of each run`);
  const docsAs = values.get("--docs-as") ?? "context";
  if (!(DOCS_AS as readonly string[]).includes(docsAs))
    throw new UsageError(`--docs-as must be ${DOCS_AS.join(" or ")}; got "${docsAs}"`);
  if (values.has("--docs-as") && !values.has("--docs")) throw new UsageError("--docs-as needs --docs <folder>");
  return {
    suite: positionals[0]!,
    model: values.get("--model"),
    docs: values.get("--docs"),
    docsAs: docsAs as DocsAs,
    runs: number("--runs", 1, true),
    json: values.get("--json"),
    timeout: number("--timeout", 600, false),
    keep,
    piArgs,
  };
}

/** Runs `pi eval <args>`; resolves with the exit code. */
export async function runEvalCli(args: string[], io: CliCommandIo, launcher: PiLauncher): Promise<number> {
  const cut = args.indexOf("--");
  const own = cut === -1 ? args : args.slice(0, cut);
  if (own.length === 0) {
    io.stderr(EVAL_USAGE);
    return 2;
  }
  if (own[0] === "help" || own.includes("--help") || own.includes("-h")) {
    io.stdout(EVAL_USAGE);
    return 0;
  }
  let options: EvalOptions;
  let docs: DocSet | undefined;
  let tasks: ReturnType<typeof loadSuite>;
  try {
    options = parseEvalArgs(args);
    tasks = loadSuite(resolve(io.cwd, options.suite));
    docs = options.docs === undefined ? undefined : readDocSet(resolve(io.cwd, options.docs));
    if (options.json !== undefined) checkReportPath(resolve(io.cwd, options.json));
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof SuiteError)) throw error;
    io.stderr(`pi eval: ${error.message}\n`);
    return 2;
  }
  const variants: Variant[] = docs === undefined ? ["no-docs"] : ["no-docs", "docs"];
  const total = tasks.length * variants.length * options.runs;
  const startedAt = new Date();
  const results: RunResult[] = [];
  for (const task of tasks) {
    for (const variant of variants) {
      for (let run = 1; run <= options.runs && !io.signal.aborted; run++) {
        io.stderr(`[${results.length + 1}/${total}] ${task.name} (${variant}, run ${run}) ... `);
        const result = await runTask(task, variant, run, {
          launcher,
          model: options.model,
          timeout: options.timeout,
          docs,
          docsAs: options.docsAs,
          piArgs: options.piArgs,
          keep: options.keep,
          env: process.env,
          signal: io.signal,
        });
        io.stderr(`${result.status.toUpperCase()}\n`);
        results.push(result);
      }
    }
  }
  const report = buildReport({
    suite: resolve(io.cwd, options.suite),
    model: options.model,
    docs: docs === undefined ? undefined : { folder: docs.folder, files: docs.files, as: options.docsAs },
    runsPerTask: options.runs,
    startedAt: startedAt.toISOString(),
    seconds: (Date.now() - startedAt.getTime()) / 1000,
    results,
  });
  io.stdout(formatReport(report));
  if (options.json !== undefined) {
    const path = resolve(io.cwd, options.json);
    try {
      await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
      io.stdout(`report: ${path}\n`);
    } catch (error) {
      io.stderr(`pi eval: cannot write the report ${path}: ${(error as Error).message}\n`);
      return 1;
    }
  }
  if (io.signal.aborted) {
    io.stderr(`pi eval: interrupted after ${results.length} of ${total} runs\n`);
    return 1;
  }
  return results.every((r) => r.status === "pass") ? 0 : 1;
}

/** The report's folder must exist before an hour of runs, and the path must not be a folder. */
function checkReportPath(path: string): void {
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new UsageError(`--json ${path}: the folder ${folder} does not exist`);
  if (existsSync(path) && statSync(path).isDirectory())
    throw new UsageError(`--json ${path}: is a folder; give a file name`);
}
