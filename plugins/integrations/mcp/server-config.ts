/**
 * MCP server entries as users write them — in settings.json `mcpServers` (global and project, merged by
 * the settings plugin) and in this plugin's `servers` config (for distributions) — checked once and
 * turned into one normalized shape. The accepted entry is the one Claude Desktop, Cursor and most MCP
 * READMEs print: `{ command, args, env, cwd }` for a local server, `{ url, headers }` for a remote one.
 */
import { Type } from "@sinclair/typebox";
import { isAbsolute, resolve } from "node:path";
import { parseExposure, type ExposureConfig } from "./exposure.js";

const StringMap = Type.Record(Type.String(), Type.String());

/** One server entry, as JSON. Used for the plugin's config schema; settings entries go through `parseServerEntry`. */
export const ServerEntrySchema = Type.Object({
  type: Type.Optional(Type.String()),
  command: Type.Optional(Type.String({ minLength: 1 })),
  args: Type.Optional(Type.Array(Type.String())),
  env: Type.Optional(StringMap),
  cwd: Type.Optional(Type.String()),
  url: Type.Optional(Type.String({ minLength: 1 })),
  headers: Type.Optional(StringMap),
  disabled: Type.Optional(Type.Boolean()),
  enabled: Type.Optional(Type.Boolean()),
  startTimeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
  exposure: Type.Optional(Type.String()),
  toolExposure: Type.Optional(StringMap),
  timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  oauth: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

/** What both kinds of server share: pi's exposure and per-request `timeout` (seconds). */
interface CommonSpec extends ExposureConfig {
  name: string;
  disabled: boolean;
  startTimeoutMs?: number;
  /** pi's `timeout`, in ms: how long one request may go without an answer or a progress report. */
  callTimeoutMs?: number;
}

/** An HTTP server's `oauth` settings (pi 1.6's names); all optional. */
export interface OAuthSettings {
  clientId?: string;
  clientSecret?: string;
  clientName?: string;
  scope?: string;
  callbackPort?: number;
  callbackUrl?: string;
}

/** A local server: a child process speaking MCP on stdin/stdout. */
export interface StdioServerSpec extends CommonSpec {
  transport: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute; relative entries resolve against the session's working folder. */
  cwd: string;
  /** The mcp.json the entry came from: its `env` values are expanded (`${NAME}`, `!command`) at start. */
  valuesFrom?: string;
}

/** A remote server over streamable HTTP. */
export interface HttpServerSpec extends CommonSpec {
  transport: "http";
  url: string;
  headers: Record<string, string>;
  oauth?: OAuthSettings;
  /** The mcp.json the entry came from: its `headers` values are expanded (`${NAME}`, `!command`) at start. */
  valuesFrom?: string;
}

/** A checked server entry, local or remote. */
export type ServerSpec = StdioServerSpec | HttpServerSpec;

/** A server entry that could not be used, with a one-line reason naming where it came from. */
export interface ServerProblem {
  name: string;
  message: string;
}

const STDIO_TYPES = new Set(["stdio"]);
const HTTP_TYPES = new Set(["http", "streamable-http", "streamableHttp", "streamable_http"]);
/** What a server name may hold: it becomes part of a tool name (`mcp__<server>__<tool>`). */
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Reads every entry of one `mcpServers`-shaped object. `origin` names the source in problems
 * (e.g. `settings "mcpServers"`). Entries that cannot be used are returned as problems, not thrown,
 * so one bad entry never hides the good ones.
 */
export function parseServers(
  raw: unknown,
  origin: string,
  cwd: string,
): { specs: ServerSpec[]; problems: ServerProblem[] } {
  const specs: ServerSpec[] = [];
  const problems: ServerProblem[] = [];
  if (raw === undefined || raw === null) return { specs, problems };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    problems.push({
      name: "*",
      message: `${origin} must be an object of named servers, got ${Array.isArray(raw) ? "an array" : typeof raw}`,
    });
    return { specs, problems };
  }
  for (const [name, entry] of Object.entries(raw as Record<string, unknown>)) {
    const parsed = parseServerEntry(name, entry, cwd);
    if (typeof parsed === "string") problems.push({ name, message: `${origin}.${name}: ${parsed}` });
    else specs.push(parsed);
  }
  return { specs, problems };
}

/** One entry, or the reason it is unusable. */
export function parseServerEntry(name: string, entry: unknown, cwd: string): ServerSpec | string {
  if (!SERVER_NAME.test(name))
    return `the server name may hold only letters, digits, "_" and "-" (it becomes part of tool names)`;
  if (entry === null || typeof entry !== "object" || Array.isArray(entry))
    return `must be an object with "command" (a local server) or "url" (a remote one)`;
  const e = entry as Record<string, unknown>;
  const disabled = e.disabled === true || e.enabled === false;
  const startTimeoutMs = e.startTimeoutMs;
  if (startTimeoutMs !== undefined && !(Number.isInteger(startTimeoutMs) && (startTimeoutMs as number) > 0))
    return `"startTimeoutMs" must be a positive whole number of milliseconds`;
  const exposure = parseExposure(e);
  if (typeof exposure === "string") return exposure;
  if (e.timeout !== undefined && !(typeof e.timeout === "number" && e.timeout > 0))
    return `"timeout" must be a positive number of seconds`;
  const timeout = {
    ...(startTimeoutMs !== undefined && { startTimeoutMs: startTimeoutMs as number }),
    ...(typeof e.timeout === "number" && { callTimeoutMs: Math.round(e.timeout * 1000) }),
    ...exposure,
  };
  const type = e.type;
  if (type !== undefined && (typeof type !== "string" || (!STDIO_TYPES.has(type) && !HTTP_TYPES.has(type)))) {
    return `"type" ${JSON.stringify(type)} is not supported; use "stdio" or "http" (streamable HTTP)`;
  }
  const wantsHttp = typeof type === "string" ? HTTP_TYPES.has(type) : e.url !== undefined && e.command === undefined;
  if (wantsHttp) {
    if (typeof e.url !== "string" || e.url === "") return `needs a "url" (a remote server)`;
    if (!URL.canParse(e.url) || !/^https?:$/.test(new URL(e.url).protocol))
      return `"url" must be an http:// or https:// address, got ${JSON.stringify(e.url)}`;
    const headers = stringMap(e.headers, "headers");
    if (typeof headers === "string") return headers;
    const oauth = parseOAuth(e.oauth);
    if (typeof oauth === "string") return oauth;
    return { transport: "http", name, url: e.url, headers, disabled, ...timeout, ...(oauth && { oauth }) };
  }
  if (typeof e.command !== "string" || e.command === "")
    return `needs "command" (a local server) or "url" (a remote one)`;
  if (e.args !== undefined && !(Array.isArray(e.args) && e.args.every((a) => typeof a === "string")))
    return `"args" must be an array of strings`;
  const env = stringMap(e.env, "env");
  if (typeof env === "string") return env;
  if (e.cwd !== undefined && typeof e.cwd !== "string") return `"cwd" must be a string`;
  const dir = typeof e.cwd === "string" && e.cwd !== "" ? (isAbsolute(e.cwd) ? e.cwd : resolve(cwd, e.cwd)) : cwd;
  return {
    transport: "stdio",
    name,
    command: e.command,
    args: (e.args as string[] | undefined) ?? [],
    env,
    cwd: dir,
    disabled,
    ...timeout,
  };
}

/** `oauth`: an object of pi's fields; strings where pi takes strings, `callbackPort` a port number. */
function parseOAuth(value: unknown): OAuthSettings | undefined | string {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return `"oauth" must be an object`;
  const raw = value as Record<string, unknown>;
  const out: OAuthSettings = {};
  for (const key of ["clientId", "clientSecret", "clientName", "scope", "callbackUrl"] as const) {
    if (raw[key] === undefined) continue;
    if (typeof raw[key] !== "string") return `"oauth.${key}" must be a string`;
    out[key] = raw[key] as string;
  }
  if (raw.callbackPort !== undefined) {
    const port = raw.callbackPort;
    if (!(Number.isInteger(port) && (port as number) > 0 && (port as number) < 65536))
      return `"oauth.callbackPort" must be a port number`;
    out.callbackPort = port as number;
  }
  return out;
}

function stringMap(value: unknown, field: string): Record<string, string> | string {
  if (value === undefined) return {};
  if (
    value === null ||
    typeof value !== "object" ||
    Array.isArray(value) ||
    !Object.values(value).every((v) => typeof v === "string")
  ) {
    return `"${field}" must be an object of string values`;
  }
  return { ...(value as Record<string, string>) };
}

/** Whether two specs start the same server (a change means: close the old one, start the new one). */
export function sameServer(a: ServerSpec, b: ServerSpec): boolean {
  const { disabled: _a, ...restA } = a;
  const { disabled: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}
