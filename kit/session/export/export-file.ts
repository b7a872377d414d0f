/**
 * Session export on disk, shared by `pi --export`, the TUI's /export and RPC's export_html: reading a
 * session file read-only (an export never repairs or rewrites it), pi's default output name, and writing
 * the HTML page or the active branch as JSONL through a temporary file, so a failed export leaves no
 * half-written file behind.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { SessionEntry, SessionHeader } from "../../../contracts/session.js";
import { renderSessionHtml, type SessionExportInput } from "./page.js";
import { pathTo } from "./tree.js";

/** Reads `path` as a session without changing it: pi's one-line errors for a missing or foreign file. */
export function readSessionForExport(path: string): SessionExportInput {
  const absolute = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolute, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new Error(`File not found: ${absolute}`);
    throw new Error(`Cannot read ${absolute}: ${(error as Error).message}`);
  }
  const records: Array<Record<string, unknown>> = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (value !== null && typeof value === "object" && !Array.isArray(value))
        records.push(value as Record<string, unknown>);
    } catch {
      // A torn line: the export shows what is whole, as loading the session would.
    }
  }
  const first = records[0];
  if (first === undefined || first.type !== "session" || typeof first.id !== "string")
    throw new Error(`Session file is not a valid pi session: ${absolute}`);
  const entries = records
    .slice(1)
    .filter((r) => typeof r.id === "string" && typeof r.type === "string" && r.type !== "session")
    .map((r) => ({ ...r, parentId: typeof r.parentId === "string" ? r.parentId : null }) as unknown as SessionEntry);
  return { header: first as unknown as SessionHeader, entries, leafId: entries.at(-1)?.id ?? null };
}

/** pi's default HTML name for a session file: `pi-session-<file name without .jsonl>.html`. */
export function defaultHtmlName(sessionPath: string): string {
  return `pi-session-${basename(sessionPath, ".jsonl")}.html`;
}

/**
 * The active branch as a session file of its own, as pi's /export writes it: a fresh header (this
 * session's id and folder, now as its time) and the entries from the root to the leaf, each parented to
 * the one before.
 */
export function branchJsonl(input: SessionExportInput, now = new Date()): string {
  const header = {
    type: "session",
    version: 3,
    id: input.header.id,
    timestamp: now.toISOString(),
    cwd: input.header.cwd,
  };
  const byId = new Map(input.entries.map((e) => [e.id, e]));
  const lines: unknown[] = [header];
  let parentId: string | null = null;
  for (const id of pathTo(input.entries, input.leafId)) {
    lines.push({ ...byId.get(id)!, parentId });
    parentId = id;
  }
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

/** Writes `content` to `path` whole or not at all (temporary file, then rename); creates the folder. */
export function writeWhole(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(temp, content, "utf8");
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Exports a session: `output` ending in `.jsonl` gets the active branch as JSONL, anything else (or no
 * output: pi's default name in `cwd`) the HTML page. Returns the path to show: the HTML path as given or
 * derived (pi prints it so), the JSONL path resolved.
 */
export function exportSession(
  input: SessionExportInput,
  sessionPath: string,
  output: string | undefined,
  cwd: string,
): string {
  if (output?.endsWith(".jsonl")) {
    const target = resolve(cwd, output);
    writeWhole(target, branchJsonl(input));
    return target;
  }
  const shown = output ?? defaultHtmlName(sessionPath);
  writeWhole(resolve(cwd, shown), renderSessionHtml(input));
  return shown;
}

/**
 * The open session's export for the TUI and RPC: pi's errors for a session kept in memory or not yet
 * written, then exportSession over the file as written (every entry is appended whole), with the leaf
 * the session holds when the caller knows it.
 */
export function exportOpenSession(
  file: string | undefined,
  leafId: string | null | undefined,
  output: string | undefined,
  cwd: string,
): string {
  if (file === undefined) throw new Error("Cannot export in-memory session to HTML");
  if (!existsSync(file)) throw new Error("Nothing to export yet - start a conversation first");
  const input = readSessionForExport(file);
  if (leafId !== undefined && (leafId === null || input.entries.some((e) => e.id === leafId))) input.leafId = leafId;
  return exportSession(input, file, output, cwd);
}
