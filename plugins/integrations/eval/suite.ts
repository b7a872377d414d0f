/**
 * Reading an eval suite: a folder whose tasks are subfolders holding `task.json` (with an optional
 * `fixture/` beside it) or `<name>.json` files at the suite's top. Every problem is a SuiteError of one
 * line naming the file and the field, so a broken suite stops before any agent runs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Check, TextMatch } from "./checks.js";

/** A suite that cannot run: the message names the file and the field (`file: field: problem`). */
export class SuiteError extends Error {}

/** One task of a suite, validated. */
export interface EvalTask {
  /** The subfolder's or the file's name without `.json`. */
  name: string;
  /** The task.json (or `<name>.json`) it came from. */
  file: string;
  prompt: string;
  /** Absolute folder copied into each run's working folder; undefined starts from an empty folder. */
  fixture: string | undefined;
  /** Seconds one run of this task may take; undefined takes the command line's. */
  timeout: number | undefined;
  checks: Check[];
}

/** The file name of a task inside its own subfolder. */
export const TASK_FILE = "task.json";

/** Reads every task of the suite folder, sorted by name. Throws SuiteError on the first problem. */
export function loadSuite(folder: string): EvalTask[] {
  const root = resolve(folder);
  if (!existsSync(root)) throw new SuiteError(`${root}: no such suite folder`);
  if (!statSync(root).isDirectory()) throw new SuiteError(`${root}: a suite is a folder of tasks, not a file`);
  const tasks: EvalTask[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(root, entry.name);
    if (entry.isDirectory() && existsSync(join(path, TASK_FILE))) {
      tasks.push(readTask(join(path, TASK_FILE), entry.name, join(path, "fixture")));
    } else if (entry.isFile() && entry.name.endsWith(".json")) {
      tasks.push(readTask(path, basename(entry.name, ".json"), undefined));
    }
  }
  if (tasks.length === 0)
    throw new SuiteError(`${root}: no tasks; add <task>/${TASK_FILE} folders or <task>.json files`);
  return tasks;
}

/** Reads and checks one task file; `defaultFixture` is used when it exists and `fixture` is not given. */
function readTask(file: string, name: string, defaultFixture: string | undefined): EvalTask {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new SuiteError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(data)) throw new SuiteError(`${file}: must be a JSON object with "prompt" and "checks"`);
  const fail = (field: string, problem: string): never => {
    throw new SuiteError(`${file}: ${field}: ${problem}`);
  };
  known(data, ["prompt", "fixture", "timeout", "checks"], "", fail);
  if (data.prompt === undefined) fail("prompt", "missing; give the task's prompt as a string");
  if (typeof data.prompt !== "string" || data.prompt.trim() === "") fail("prompt", "must be a non-empty string");
  let fixture = defaultFixture !== undefined && existsSync(defaultFixture) ? defaultFixture : undefined;
  if (data.fixture !== undefined) {
    if (typeof data.fixture !== "string" || data.fixture === "") fail("fixture", "must be a folder path");
    fixture = resolve(dirname(file), data.fixture as string);
    if (!existsSync(fixture) || !statSync(fixture).isDirectory())
      fail("fixture", `${fixture} is not a folder (the path is relative to the task file)`);
  }
  if (data.timeout !== undefined && !(typeof data.timeout === "number" && data.timeout > 0))
    fail("timeout", "must be a number of seconds above 0");
  if (data.checks === undefined) fail("checks", "missing; give at least one check");
  if (!Array.isArray(data.checks) || data.checks.length === 0) fail("checks", "must be a non-empty array");
  const checks = (data.checks as unknown[]).map((check, index) => readCheck(check, `checks[${index}]`, fail));
  return { name, file, prompt: data.prompt as string, fixture, timeout: data.timeout as number | undefined, checks };
}

type Fail = (field: string, problem: string) => never;

/** One check: exactly one of `file`, `command` or `answer`, with its own fields. */
function readCheck(value: unknown, field: string, fail: Fail): Check {
  if (!isObject(value)) return fail(field, 'must be an object with "file", "command" or "answer"');
  const kinds = ["file", "command", "answer"].filter((k) => value[k] !== undefined);
  if (kinds.length !== 1) return fail(field, 'give exactly one of "file", "command" or "answer"');
  const name = optionalString(value.name, `${field}.name`, fail);
  if (value.file !== undefined) {
    known(value, ["name", "file", "exists", "contains", "matches"], field, fail);
    if (typeof value.file !== "string" || value.file === "") fail(`${field}.file`, "must be a path in the task folder");
    if (value.exists !== undefined && typeof value.exists !== "boolean")
      fail(`${field}.exists`, "must be true or false");
    const match = readMatch(value, field, fail);
    if (value.exists === false && (match.contains !== undefined || match.matches !== undefined))
      fail(`${field}.exists`, 'false cannot be combined with "contains" or "matches"');
    return { kind: "file", name, path: value.file as string, exists: value.exists !== false, ...match };
  }
  if (value.command !== undefined) {
    known(value, ["name", "command", "exitCode", "timeout"], field, fail);
    if (typeof value.command !== "string" || value.command.trim() === "")
      fail(`${field}.command`, "must be a shell command line");
    if (value.exitCode !== undefined && !Number.isInteger(value.exitCode))
      fail(`${field}.exitCode`, "must be an integer");
    if (value.timeout !== undefined && !(typeof value.timeout === "number" && value.timeout > 0))
      fail(`${field}.timeout`, "must be a number of seconds above 0");
    return {
      kind: "command",
      name,
      command: value.command as string,
      exitCode: (value.exitCode as number | undefined) ?? 0,
      timeout: (value.timeout as number | undefined) ?? 120,
    };
  }
  const answer = value.answer;
  known(value, ["name", "answer"], field, fail);
  if (!isObject(answer)) return fail(`${field}.answer`, 'must be an object with "contains" and/or "matches"');
  known(answer, ["contains", "matches"], `${field}.answer`, fail);
  const match = readMatch(answer, `${field}.answer`, fail);
  if (match.contains === undefined && match.matches === undefined)
    fail(`${field}.answer`, 'give "contains" or "matches"');
  return { kind: "answer", name, ...match };
}

/** `contains` (a string) and `matches` (a JS regular expression, compiled here: a bad one is a suite error). */
function readMatch(value: Record<string, unknown>, field: string, fail: Fail): TextMatch {
  const contains = optionalString(value.contains, `${field}.contains`, fail);
  const matches = optionalString(value.matches, `${field}.matches`, fail);
  if (matches !== undefined) {
    try {
      new RegExp(matches);
    } catch (error) {
      fail(`${field}.matches`, `not a valid regular expression (${(error as Error).message})`);
    }
  }
  return { contains, matches };
}

function optionalString(value: unknown, field: string, fail: Fail): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") return fail(field, "must be a string");
  return value;
}

/** Refuses a field the format does not have (a typo would otherwise be a check that checks nothing). */
function known(value: Record<string, unknown>, fields: string[], at: string, fail: Fail): void {
  const extra = Object.keys(value).find((key) => !fields.includes(key));
  if (extra !== undefined)
    fail(at === "" ? extra : `${at}.${extra}`, `unknown field; expected one of ${fields.join(", ")}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
