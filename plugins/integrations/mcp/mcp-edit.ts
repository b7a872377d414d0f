/**
 * `pi mcp add` and `pi mcp remove` (pi 1.6's shell commands that change an mcp.json): the user's
 * `<agentDir>/mcp.json`, or the project's `.pi/mcp.json` with `--local` / `-l`. An entry is checked as
 * a session would read it before it is written; the file keeps its other servers, its other fields and
 * its indentation, and is written whole to a temporary file that is then renamed over it, so a crash
 * never leaves half a file. Usage errors exit 2 with one line saying what to do.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { CliCommandIo } from "pi-host";
import { mcpFilePaths } from "./mcp-files.js";
import { parseServerEntry } from "./server-config.js";

const HINT = 'Use "pi mcp --help" for usage.';
const ADD_USAGE = "Usage: pi mcp add <server> [options] (--url <url> | -- <command> [args...])";

/** How each option of `add` / `remove` takes its value. */
type OptionKind = "flag" | "value" | "list";

const ADD_OPTIONS: Record<string, OptionKind> = {
  local: "flag",
  url: "value",
  env: "list",
  cwd: "value",
  header: "list",
  "bearer-token-env-var": "value",
  "oauth-client-id": "value",
  "oauth-client-secret": "value",
  "oauth-callback-port": "value",
  "oauth-client-name": "value",
  "oauth-client-registration": "value",
  exposure: "value",
  description: "value",
};
const HTTP_ONLY = [
  "header",
  "bearer-token-env-var",
  "oauth-client-id",
  "oauth-client-secret",
  "oauth-callback-port",
  "oauth-client-name",
  "oauth-client-registration",
];
const STDIO_ONLY = ["env", "cwd"];

/** Options read from the command line; a string is the usage error. */
interface Parsed {
  positional: string[];
  values: Map<string, string | true>;
  lists: Map<string, string[]>;
}

/**
 * Reads `--name value` options. `--` ends them, as does the `maxPositionals`-th positional argument,
 * so `add <server> <command> --flag` passes the command's own options through (as pi 1.6 does).
 */
export function parseOptions(
  args: string[],
  known: Record<string, OptionKind>,
  maxPositionals = Number.POSITIVE_INFINITY,
): Parsed | string {
  const out: Parsed = { positional: [], values: new Map(), lists: new Map() };
  for (let i = 0; i < args.length; i++) {
    const typed = args[i]!;
    const arg = typed === "-l" ? "--local" : typed;
    if (arg === "--" || out.positional.length >= maxPositionals) {
      out.positional.push(...args.slice(arg === "--" ? i + 1 : i));
      break;
    }
    if (!arg.startsWith("--")) {
      out.positional.push(arg);
      continue;
    }
    const name = arg.slice(2);
    const kind = known[name];
    if (kind === undefined) return `Unknown option ${typed}. ${HINT}`;
    if (kind === "flag") {
      out.values.set(name, true);
      continue;
    }
    const value = args[++i];
    if (value === undefined) return `${arg} needs a value. ${HINT}`;
    if (kind === "list") out.lists.set(name, [...(out.lists.get(name) ?? []), value]);
    else out.values.set(name, value);
  }
  return out;
}

/** `KEY=VALUE` pairs of a repeatable option as a record; a string is the usage error. */
function pairs(option: string, list: string[] | undefined): Record<string, string> | string {
  const record: Record<string, string> = {};
  for (const pair of list ?? []) {
    const at = pair.indexOf("=");
    if (at <= 0) return `--${option} expects KEY=VALUE, got "${pair}".`;
    record[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return record;
}

/** The mcp.json entry `add` writes, built from its options; a string is the usage error. */
function entryFrom(parsed: Parsed, command: string[]): Record<string, unknown> | string {
  const value = (name: string): string | undefined => {
    const found = parsed.values.get(name);
    return typeof found === "string" ? found : undefined;
  };
  const url = value("url");
  const misplaced = (url === undefined ? HTTP_ONLY : STDIO_ONLY).find(
    (name) => parsed.values.has(name) || parsed.lists.has(name),
  );
  if (misplaced !== undefined)
    return `--${misplaced} only applies to ${url === undefined ? "HTTP servers (--url)" : "stdio servers"}.`;
  let entry: Record<string, unknown>;
  if (url !== undefined) {
    const headers = pairs("header", parsed.lists.get("header"));
    if (typeof headers === "string") return headers;
    const bearer = value("bearer-token-env-var");
    if (bearer !== undefined) headers.Authorization = `Bearer \${${bearer}}`;
    const port = value("oauth-callback-port");
    if (port !== undefined && !/^\d+$/.test(port)) return `--oauth-callback-port expects a port number, got "${port}".`;
    const oauth: Record<string, unknown> = {
      ...(value("oauth-client-id") !== undefined && { clientId: value("oauth-client-id") }),
      ...(value("oauth-client-secret") !== undefined && { clientSecret: value("oauth-client-secret") }),
      ...(port !== undefined && { callbackPort: Number(port) }),
      ...(value("oauth-client-name") !== undefined && { clientName: value("oauth-client-name") }),
      ...(value("oauth-client-registration") !== undefined && {
        clientRegistration: value("oauth-client-registration"),
      }),
    };
    entry = {
      url,
      ...(Object.keys(headers).length > 0 && { headers }),
      ...(Object.keys(oauth).length > 0 && { oauth }),
    };
  } else {
    const env = pairs("env", parsed.lists.get("env"));
    if (typeof env === "string") return env;
    const [executable, ...rest] = command;
    entry = {
      command: executable,
      ...(rest.length > 0 && { args: rest }),
      ...(Object.keys(env).length > 0 && { env }),
      ...(value("cwd") !== undefined && { cwd: value("cwd") }),
    };
  }
  if (value("exposure") !== undefined) entry.exposure = value("exposure");
  if (value("description") !== undefined) entry.description = value("description");
  return entry;
}

/** Runs `pi mcp add <args>`; resolves with the exit code. */
export function runAdd(args: string[], io: CliCommandIo, agentDir: string): number {
  const parsed = parseOptions(args, ADD_OPTIONS, 2);
  if (typeof parsed === "string") return usage(io, parsed);
  const [name, ...command] = parsed.positional;
  const url = parsed.values.get("url");
  if (name === undefined || (url === undefined) === (command.length === 0)) return usage(io, `${ADD_USAGE}. ${HINT}`);
  const entry = entryFrom(parsed, command);
  if (typeof entry === "string") return usage(io, entry);
  const checked = parseServerEntry(name, entry, io.cwd);
  if (typeof checked === "string") return usage(io, `MCP server "${name}": ${checked}.`);
  const local = parsed.values.has("local");
  const path = local ? mcpFilePaths(agentDir, io.cwd).project : mcpFilePaths(agentDir, io.cwd).user;
  let replaced = false;
  try {
    editServers(path, (servers) => {
      replaced = servers[name] !== undefined;
      servers[name] = entry;
      return true;
    });
  } catch (error) {
    io.stderr(`Error: could not update ${path}: ${(error as Error).message}\n`);
    return 1;
  }
  const scope = local ? "project" : "global";
  io.stdout(`${replaced ? "Replaced" : "Added"} ${scope} MCP server "${name}" in ${path}.\n`);
  const mayNeedSignIn =
    typeof entry.url === "string" &&
    !Object.keys((entry.headers as Record<string, string> | undefined) ?? {}).some(
      (h) => h.toLowerCase() === "authorization",
    );
  io.stdout(`Check it with: pi mcp list${mayNeedSignIn ? `. If it requires sign-in: pi mcp login ${name}` : ""}\n`);
  return 0;
}

/** Runs `pi mcp remove <args>`; resolves with the exit code. Stored OAuth sign-ins are kept (pi 1.6). */
export function runRemove(args: string[], io: CliCommandIo, agentDir: string): number {
  const parsed = parseOptions(args, { local: "flag" });
  if (typeof parsed === "string") return usage(io, parsed);
  const [name, ...extra] = parsed.positional;
  if (name === undefined || extra.length > 0) return usage(io, `Usage: pi mcp remove <server> [-l]. ${HINT}`);
  const local = parsed.values.has("local");
  const paths = mcpFilePaths(agentDir, io.cwd);
  const path = local ? paths.project : paths.user;
  const scope = local ? "project" : "global";
  let removed = false;
  try {
    if (existsSync(path))
      editServers(path, (servers) => {
        if (servers[name] === undefined) return false;
        delete servers[name];
        removed = true;
        return true;
      });
  } catch (error) {
    io.stderr(`Error: could not update ${path}: ${(error as Error).message}\n`);
    return 1;
  }
  if (removed) {
    io.stdout(`Removed ${scope} MCP server "${name}" from ${path}.\n`);
    return 0;
  }
  const other = local ? paths.user : paths.project;
  const elsewhere = definesServer(other, name) ? ` It is defined in ${other}; ${local ? "omit" : "use"} --local.` : "";
  io.stderr(`Error: no ${scope} MCP server named "${name}" in ${path}.${elsewhere}\n`);
  return 1;
}

function usage(io: CliCommandIo, message: string): number {
  io.stderr(`Error: ${message}\n`);
  return 2;
}

function definesServer(path: string, name: string): boolean {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8").replace(/^\uFEFF/, "")) as { mcpServers?: unknown };
    return isRecord(parsed.mcpServers) && parsed.mcpServers[name] !== undefined;
  } catch {
    return false;
  }
}

/**
 * Reads an mcp.json (an empty one when missing), lets `edit` change its `mcpServers`, and when it
 * returns true writes the file back with its indentation: temporary file, then rename.
 */
function editServers(path: string, edit: (servers: Record<string, unknown>) => boolean): void {
  const text = existsSync(path) ? readFileSync(path, "utf8").replace(/^\uFEFF/, "") : undefined;
  let parsed: unknown;
  try {
    parsed = text === undefined || text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    throw new Error(`it is not valid JSON (${(error as Error).message}); fix or remove it first`);
  }
  if (!isRecord(parsed) || (parsed.mcpServers !== undefined && !isRecord(parsed.mcpServers)))
    throw new Error(`expected an object with an "mcpServers" object`);
  const servers = isRecord(parsed.mcpServers) ? parsed.mcpServers : {};
  if (!edit(servers)) return;
  parsed.mcpServers = servers;
  const indent = (text !== undefined && /^([ \t]+)\S/m.exec(text)?.[1]) || "  ";
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(parsed, null, indent)}\n`, { mode: 0o600 });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
