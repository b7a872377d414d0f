/**
 * MCP servers from `mcp.json`, the file pi 1.6 and other MCP clients read: `<agentDir>/mcp.json` for the
 * user and `<cwd>/.pi/mcp.json` for a trusted project, each `{ "mcpServers": { name: entry } }`. A
 * project entry replaces a user entry of the same name whole, so a project's command never inherits the
 * user's `env` or `headers`; a project entry without `command`, `url` or `type` is an override that may
 * only set `enabled` (and pi's `exposure` / `toolExposure`, which are accepted and unused here) of the
 * user's entry. A file that cannot be read yields one problem naming it; the other file still counts.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { parseServerEntry, type ServerProblem, type ServerSpec } from "./server-config.js";

/** The fields a project override may set, as pi 1.6 allows them. */
const OVERRIDE_KEYS = ["enabled", "exposure", "toolExposure"];

/** One file's entries by name, or the one-line reason the file is unusable. */
export interface McpFile {
  path: string;
  servers: Record<string, unknown>;
  problem?: string;
}

/** Reads one mcp.json; a missing file is an empty one, a malformed one is a problem naming the file. */
export function readMcpFile(path: string): McpFile {
  if (!existsSync(path)) return { path, servers: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8").replace(/^\uFEFF/, ""));
  } catch (error) {
    return { path, servers: {}, problem: `${path}: ${(error as Error).message}` };
  }
  const servers = isRecord(parsed) ? parsed.mcpServers : undefined;
  if (!isRecord(parsed) || (servers !== undefined && !isRecord(servers)))
    return { path, servers: {}, problem: `${path}: expected an object with an "mcpServers" object` };
  return { path, servers: servers ?? {} };
}

/**
 * The servers of the user's file and (when given) the project's, checked: project entries replace user
 * entries of the same name, overrides patch `enabled` only. Every spec remembers its file, and its
 * `env` / `headers` values are expanded when the server starts (see config-values.ts).
 */
export function serversFromFiles(
  user: McpFile,
  project: McpFile | undefined,
  cwd: string,
): { specs: ServerSpec[]; problems: ServerProblem[] } {
  const problems: ServerProblem[] = [];
  const chosen = new Map<string, { entry: unknown; path: string }>();
  for (const file of project === undefined ? [user] : [user, project]) {
    if (file.problem !== undefined) problems.push({ name: "*", message: file.problem });
    for (const [name, entry] of Object.entries(file.servers)) {
      if (file !== project || !isRecord(entry) || !isOverride(entry)) {
        chosen.set(name, { entry, path: file.path });
        continue;
      }
      const base = chosen.get(name);
      const extra = Object.keys(entry).filter((key) => !OVERRIDE_KEYS.includes(key));
      if (base === undefined || !isRecord(base.entry))
        problems.push({
          name,
          message: `${file.path}: server "${name}" needs "command" or "url", or a user server to override`,
        });
      else if (extra.length > 0)
        problems.push({
          name,
          message: `${file.path}: server "${name}": an override can only set ${OVERRIDE_KEYS.join(", ")}`,
        });
      else chosen.set(name, { entry: { ...base.entry, ...entry }, path: base.path });
    }
  }
  const specs: ServerSpec[] = [];
  for (const [name, { entry, path }] of chosen) {
    const parsed = parseServerEntry(name, withHome(entry), cwd);
    if (typeof parsed === "string") problems.push({ name, message: `${path}: server "${name}": ${parsed}` });
    else specs.push({ ...parsed, valuesFrom: path });
  }
  return { specs, problems };
}

/** The user's and the project's mcp.json paths. */
export function mcpFilePaths(agentDir: string, cwd: string): { user: string; project: string } {
  return { user: join(agentDir, "mcp.json"), project: join(cwd, ".pi", "mcp.json") };
}

/** A project entry that patches a user entry instead of defining a server. */
function isOverride(entry: Record<string, unknown>): boolean {
  return entry.command === undefined && entry.url === undefined && entry.type === undefined;
}

/** pi 1.6: a leading `~/` in `command`, an argument or `cwd` names the home folder. */
function withHome(entry: unknown): unknown {
  if (!isRecord(entry)) return entry;
  const out: Record<string, unknown> = { ...entry };
  if (typeof out.command === "string") out.command = home(out.command);
  if (typeof out.cwd === "string") out.cwd = home(out.cwd);
  if (Array.isArray(out.args)) out.args = out.args.map((a) => (typeof a === "string" ? home(a) : a));
  return out;
}

function home(value: string): string {
  if (value === "~") return homedir();
  return value.startsWith("~/") ? join(homedir(), value.slice(2)) : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The servers of both files for `cwd`: the project's only when `projectTrusted`. */
export function loadMcpFiles(
  agentDir: string,
  cwd: string,
  projectTrusted: boolean,
): { specs: ServerSpec[]; problems: ServerProblem[] } {
  const paths = mcpFilePaths(agentDir, cwd);
  return serversFromFiles(readMcpFile(paths.user), projectTrusted ? readMcpFile(paths.project) : undefined, cwd);
}
