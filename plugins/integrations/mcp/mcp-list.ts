/**
 * `pi mcp list [--json]` (pi 1.6): connects to every enabled server, prints its state, tools and error
 * in pi 1.6's layout, and exits 1 when a config entry is invalid or an enabled server did not connect,
 * so an mcp.json just written can be checked from a shell.
 */
import { existsSync } from "node:fs";
import type { CliCommandIo } from "pi-host";
import { toolExposureOf } from "./exposure.js";
import type { ServerStatus } from "./mcp-source.js";
import { McpSignInRequired } from "./oauth-provider.js";

/** What `list` needs from the plugin. */
export interface McpListDeps {
  /** Every configured server for `cwd`, with a connection for each enabled one. */
  statuses(cwd: string): Promise<ServerStatus[]>;
  /** One-line problems of the config files (invalid entries, unreadable files). */
  problems(cwd: string): Promise<string[]>;
  /** The user's and the project's mcp.json paths. */
  paths(cwd: string): { user: string; project: string };
  /** Whether the project's `.pi/mcp.json` is read for `cwd` (the project is trusted). */
  projectTrusted(cwd: string): Promise<boolean>;
}

/** One server as `list` reports it (pi 1.6's `--json` fields). */
interface Report {
  name: string;
  scope: "global" | "project";
  source: string;
  enabled: boolean;
  exposure: string;
  transport: string;
  state: string;
  tools: string[];
  toolExposure?: Record<string, string>;
  resources?: boolean;
  error?: string;
}

/** Runs `pi mcp list <args>`; resolves with the exit code. */
export async function runList(args: string[], io: CliCommandIo, deps: McpListDeps): Promise<number> {
  const json = args.includes("--json");
  const extra = args.find((a) => a !== "--json");
  if (extra !== undefined) {
    io.stderr(
      `Error: ${extra.startsWith("-") ? `Unknown option ${extra}` : "Usage: pi mcp list [--json]"}. Use "pi mcp --help" for usage.\n`,
    );
    return 2;
  }
  const paths = deps.paths(io.cwd);
  const statuses = await deps.statuses(io.cwd);
  const errors = await deps.problems(io.cwd);
  const reports = await Promise.all(statuses.map((status) => report(status, paths.project)));
  const note =
    existsSync(paths.project) && !(await deps.projectTrusted(io.cwd))
      ? `${paths.project} is ignored because the project is not trusted. Start pi in the project to trust it.`
      : undefined;
  const failed = errors.length > 0 || reports.some((r) => r.enabled && r.state !== "connected");
  if (json) {
    io.stdout(`${JSON.stringify({ servers: reports, errors, ...(note && { note }) }, null, 2)}\n`);
    return failed ? 1 : 0;
  }
  const lines: string[] = [];
  if (reports.length === 0 && errors.length === 0)
    lines.push(`No MCP servers configured. Add them to ${paths.user} or .pi/mcp.json.`);
  for (const r of reports) {
    const state =
      r.state === "connected"
        ? `connected, ${r.tools.length} tool${r.tools.length === 1 ? "" : "s"}`
        : r.state === "needs-auth"
          ? "needs sign-in"
          : r.state;
    lines.push(`${r.name}: ${state} (${r.exposure}, ${r.scope})`, `  ${r.transport}`);
    if (r.state === "needs-auth") lines.push(`  sign in with: pi mcp login ${r.name}`);
    if (r.tools.length > 0)
      lines.push(
        `  tools: ${r.tools.map((t) => (r.toolExposure?.[t] ? `${t} [${r.toolExposure[t]}]` : t)).join(", ")}`,
      );
    if (r.resources) lines.push("  offers resources");
    if (r.error !== undefined) lines.push(`  ${r.error.split("\n").join("\n  ")}`);
  }
  for (const error of errors) lines.push(`config error: ${error}`);
  if (note !== undefined) lines.push(note);
  io.stdout(lines.length === 0 ? "" : `${lines.join("\n")}\n`);
  return failed ? 1 : 0;
}

/** Connects one server (when enabled), reads its tools, and closes it again. */
async function report(status: ServerStatus, projectPath: string): Promise<Report> {
  const { spec, enabled, connection } = status;
  const source = spec.valuesFrom ?? "settings";
  const out: Report = {
    name: spec.name,
    scope: source === projectPath ? "project" : "global",
    source,
    enabled,
    exposure: spec.exposure ?? "codemode",
    transport: spec.transport === "http" ? spec.url : [spec.command, ...spec.args].join(" "),
    state: "disabled",
    tools: [],
  };
  if (!enabled || connection === undefined) return out;
  try {
    await connection.ensureStarted();
    const caps = connection.capabilities();
    const tools = caps.tools ? await connection.listTools() : [];
    out.state = "connected";
    out.tools = tools.map((t) => t.name);
    const overrides = out.tools.flatMap((t) => {
      const exposure = toolExposureOf(spec, t, "codemode");
      return exposure === out.exposure ? [] : [[t, exposure]];
    });
    if (overrides.length > 0) out.toolExposure = Object.fromEntries(overrides);
    if (caps.resources) out.resources = true;
  } catch (error) {
    // A remote server without a usable sign-in is not broken: it waits for `pi mcp login`.
    if (error instanceof McpSignInRequired || /sign-in required/.test((error as Error).message))
      out.state = "needs-auth";
    else {
      out.state = "failed";
      out.error = (error as Error).message;
    }
  } finally {
    await connection.close();
  }
  return out;
}
