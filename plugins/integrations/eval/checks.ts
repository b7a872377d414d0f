/**
 * The checks of a task and how each is judged after the agent's run, in the run's working folder: a
 * file's presence or text, a shell command's exit code, or the agent's final answer. A check that does
 * not hold is a result (`passed: false` with what was seen), never an exception.
 */
import { spawn } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import { endGroup } from "./process-group.js";

/** Text conditions shared by file and answer checks; both may be given, and both must hold. */
export interface TextMatch {
  contains: string | undefined;
  /** A JavaScript regular expression's source. */
  matches: string | undefined;
}

/** A file in the working folder exists (or, with `exists: false`, does not), optionally with some text. */
export interface FileCheck extends TextMatch {
  kind: "file";
  name: string | undefined;
  path: string;
  exists: boolean;
}

/** A shell command run in the working folder after the agent ends, expected to exit with `exitCode`. */
export interface CommandCheck {
  kind: "command";
  name: string | undefined;
  command: string;
  exitCode: number;
  /** Seconds before the command is ended and the check fails. */
  timeout: number;
}

/** The agent's final answer (the text of its last message). */
export interface AnswerCheck extends TextMatch {
  kind: "answer";
  name: string | undefined;
}

/** One check of a task. */
export type Check = FileCheck | CommandCheck | AnswerCheck;

/** How one check came out. */
export interface CheckResult {
  /** The check's `name`, or a description built from its fields. */
  label: string;
  passed: boolean;
  /** What was seen when it did not hold (or a short note when it did). */
  detail: string;
}

/** What a check can look at. */
export interface CheckInput {
  /** The run's working folder. */
  folder: string;
  /** The agent's final answer text. */
  answer: string;
  /** The folder of the task's file, where check scripts the agent must not see can live. */
  taskDir?: string;
  signal?: AbortSignal;
}

/** Judges every check, in order. */
export async function runChecks(checks: readonly Check[], input: CheckInput): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) results.push(await runCheck(check, input));
  return results;
}

/** A short description of a check for the report. */
export function checkLabel(check: Check): string {
  if (check.name !== undefined) return check.name;
  if (check.kind === "command") return `command \`${check.command}\` exits ${check.exitCode}`;
  const subject = check.kind === "file" ? `file ${check.path}` : "answer";
  if (check.kind === "file" && !check.exists) return `${subject} absent`;
  const parts = [
    check.contains === undefined ? undefined : `contains ${JSON.stringify(check.contains)}`,
    check.matches === undefined ? undefined : `matches /${check.matches}/`,
  ].filter((p) => p !== undefined);
  return parts.length === 0 ? `${subject} exists` : `${subject} ${parts.join(" and ")}`;
}

async function runCheck(check: Check, input: CheckInput): Promise<CheckResult> {
  const label = checkLabel(check);
  if (check.kind === "answer") return { label, ...matchText(check, input.answer, "the answer") };
  if (check.kind === "command") return { label, ...(await runCommand(check, input)) };
  const path = resolve(input.folder, check.path);
  const inside = relative(input.folder, path);
  if (inside.startsWith("..") || isAbsolute(inside))
    return { label, passed: false, detail: `${check.path} is outside the task folder` };
  const found = await stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!check.exists) return { label, passed: !found, detail: found ? `${check.path} exists` : "absent" };
  if (!found) return { label, passed: false, detail: `${check.path} does not exist` };
  if (check.contains === undefined && check.matches === undefined) return { label, passed: true, detail: "exists" };
  return { label, ...matchText(check, await readFile(path, "utf8"), check.path) };
}

/** Both given conditions must hold; the detail quotes the start of the text when one does not. */
function matchText(match: TextMatch, text: string, what: string): { passed: boolean; detail: string } {
  const missing: string[] = [];
  if (match.contains !== undefined && !text.includes(match.contains))
    missing.push(`does not contain ${JSON.stringify(match.contains)}`);
  if (match.matches !== undefined && !new RegExp(match.matches).test(text))
    missing.push(`does not match /${match.matches}/`);
  if (missing.length === 0) return { passed: true, detail: "matches" };
  return { passed: false, detail: `${what} ${missing.join(" and ")} (it starts ${JSON.stringify(excerpt(text))})` };
}

/** Output kept in a command check's detail. */
const OUTPUT_TAIL = 600;

/**
 * Runs a command check with `sh -c` in its own process group, so a timeout ends all it started. The
 * command sees the final answer as PI_EVAL_ANSWER and the task file's folder as PI_EVAL_TASK_DIR.
 */
function runCommand(check: CommandCheck, input: CheckInput): Promise<{ passed: boolean; detail: string }> {
  return new Promise((done) => {
    const env = { ...process.env, PI_EVAL_ANSWER: input.answer, PI_EVAL_TASK_DIR: input.taskDir ?? input.folder };
    const child = spawn("sh", ["-c", check.command], {
      cwd: input.folder,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString("utf8")).slice(-OUTPUT_TAIL * 4);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let ended: string | undefined;
    const end = (why: string): void => {
      if (ended !== undefined) return;
      ended = why;
      endGroup(child);
    };
    const timer = setTimeout(() => end(`timed out after ${check.timeout} s`), check.timeout * 1000);
    const abort = (): void => end("interrupted");
    input.signal?.addEventListener("abort", abort, { once: true });
    const finish = (detail: string, passed: boolean): void => {
      clearTimeout(timer);
      input.signal?.removeEventListener("abort", abort);
      done({ passed, detail });
    };
    child.on("error", (error) => finish(`cannot run sh: ${error.message}`, false));
    child.on("close", (code, signal) => {
      const tail = output.trim().slice(-OUTPUT_TAIL);
      const shown = tail === "" ? "" : `; output: ${tail}`;
      if (ended !== undefined) return finish(`${ended}${shown}`, false);
      const status = code ?? -1;
      if (status === check.exitCode) return finish(`exited ${status}`, true);
      finish(`exited ${code === null ? `on ${signal}` : status}, expected ${check.exitCode}${shown}`, false);
    });
  });
}

/** The first line-ish of a text for a one-line detail. */
function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
}
