/**
 * `/bug [description]`: pi 1.6.0's private bug report, as pi-host can make it. pi uploads to its
 * developers' server or exports a zip; pi-host has no server to send to, so it always exports: a zip in
 * the working folder holding report.json (pi-host's version, the environment, the model, the settings
 * with credential-looking values redacted), diagnostics.json (failed assistant turns, no conversation
 * text) and, when the user agrees, session.jsonl (the current branch). The report is recorded in the
 * session as pi's `pi.bug-report` custom entry.
 */
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { arch, platform, release } from "node:os";
import { join } from "node:path";

/** pi's consent text, with pi-host's destination. */
export const BUG_DISCLAIMER =
  "The report is written to a zip file in this folder; pi-host uploads nothing. It holds pi-host's version, your operating system, the current model, settings (credential values removed) and error diagnostics from this session.";
/** pi's note on the transcript. */
export const TRANSCRIPT_NOTE =
  "The transcript contains your messages, model output, tool calls and their results, including file contents and command output read during this session.";
/** The choices, pi's words. */
export const TRANSCRIPT_CHOICES = ["Yes, include the transcript", "No"] as const;
/** pi's custom entry type for a report made. */
export const BUG_REPORT_ENTRY_TYPE = "pi.bug-report";

const REDACTED = "<redacted>";
const SENSITIVE_KEY = /(?:^|[-_])(api[-_]?key|secret|token|password|passwd|credential|authorization|cookie)(?:$|[-_])/i;

/** A copy of a JSON value without values under keys that look like credentials (pi's rule). */
export function redactJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  return JSON.parse(
    JSON.stringify(value, (key, child: unknown) =>
      child !== null && child !== undefined && SENSITIVE_KEY.test(key.replace(/([a-z0-9])([A-Z])/g, "$1_$2"))
        ? REDACTED
        : child,
    ),
  ) as unknown;
}

/** What the report is built from. */
export interface BugReportInputs {
  hint: string | undefined;
  includeSession: boolean;
  version: string;
  sessionId: string | undefined;
  cwd: string;
  model: { provider: string; id: string; name?: string; api?: string } | null;
  thinkingLevel: string | undefined;
  settings: Record<string, unknown>;
  plugins: ReadonlyArray<{ id: string; version: string | undefined; state: string }>;
  /** The current branch's entries. */
  entries: readonly unknown[];
  /** The session file's header line, for session.jsonl. */
  header?: unknown;
  now?: Date;
  id?: string;
}

/** The report's files, by name. */
export function bugReportFiles(inputs: BugReportInputs): { id: string; files: Record<string, string> } {
  const id = inputs.id ?? randomUUID();
  const report = {
    schemaVersion: 1,
    id,
    createdAt: (inputs.now ?? new Date()).toISOString(),
    hint: inputs.hint?.trim() || null,
    environment: {
      version: inputs.version,
      runtime: `node/${process.version}`,
      platform: platform(),
      arch: arch(),
      osRelease: release(),
      shell: process.env.SHELL?.split(/[\\/]/).pop() ?? null,
      term: process.env.TERM ?? null,
      tmux: Boolean(process.env.TMUX),
      // Names help with configuration; values never leave the machine.
      piEnvironmentVariables: Object.keys(process.env)
        .filter((name) => name.startsWith("PI_"))
        .sort(),
    },
    session: {
      id: inputs.sessionId ?? null,
      included: inputs.includeSession,
      summaryIncluded: false,
      messageCount: inputs.entries.filter((e) => (e as { type?: string }).type === "message").length,
      ...(inputs.includeSession ? { cwd: inputs.cwd } : {}),
    },
    model: inputs.model,
    thinkingLevel: inputs.thinkingLevel ?? null,
    plugins: inputs.plugins,
    settings: redactJson(inputs.settings),
  };
  const files: Record<string, string> = {
    "report.json": `${JSON.stringify(report, null, 2)}\n`,
    "diagnostics.json": `${JSON.stringify(diagnostics(inputs), null, 2)}\n`,
  };
  if (inputs.includeSession) {
    const lines = [...(inputs.header === undefined ? [] : [inputs.header]), ...inputs.entries];
    files["session.jsonl"] = lines.map((line) => `${JSON.stringify(line)}\n`).join("");
  }
  return { id, files };
}

/** Failed assistant turns, without conversation content. */
function diagnostics(inputs: BugReportInputs): unknown {
  const assistant: unknown[] = [];
  let assistantMessageCount = 0;
  for (const entry of inputs.entries as Array<{ type?: string; id?: string; timestamp?: string; message?: any }>) {
    const message = entry.message;
    if (entry.type !== "message" || message?.role !== "assistant") continue;
    assistantMessageCount++;
    if (message.stopReason !== "error" && message.stopReason !== "aborted" && !message.errorMessage) continue;
    assistant.push({
      entryId: entry.id,
      timestamp: entry.timestamp,
      provider: message.provider,
      model: message.model,
      api: message.api,
      stopReason: message.stopReason,
      ...(message.errorMessage === undefined ? {} : { errorMessage: message.errorMessage }),
    });
  }
  return {
    schemaVersion: 1,
    sessionId: inputs.sessionId ?? null,
    entryCount: inputs.entries.length,
    assistantMessageCount,
    assistant,
  };
}

/** Writes the zip (`pi-bug-report-<id>.zip` in `folder`); returns its path. */
export async function writeBugReport(folder: string, id: string, files: Record<string, string>): Promise<string> {
  const { default: JSZip } = await import("jszip");
  const zip = new JSZip();
  for (const [name, text] of Object.entries(files)) zip.file(name, text);
  const path = join(folder, `pi-bug-report-${id}.zip`);
  await writeFile(path, await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" }), { flag: "wx" });
  return path;
}
