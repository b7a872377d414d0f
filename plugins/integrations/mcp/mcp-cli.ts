/**
 * `pi mcp`: pi 1.6's shell commands for MCP servers. `add` / `remove` (mcp-edit.ts) and `list`
 * (mcp-list.ts) are dispatched from here; `login <server>` and `logout <server>` sign in to a remote
 * MCP server with OAuth and out again. Login listens on a loopback callback, lets the MCP SDK's `auth()` discover the
 * authorization server, register a client when none is stored and build the PKCE authorization URL, which
 * is printed (and opened in a browser where there is a desktop); the redirected code is exchanged for
 * tokens, stored in `<agentDir>/mcp-auth.json` as pi 1.6 stores them. A stored refresh token that still
 * works signs in without a browser.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { CliCommandIo } from "pi-host";
import { runAdd, runRemove } from "./mcp-edit.js";
import { type McpListDeps, runList } from "./mcp-list.js";
import { createOAuthProvider } from "./oauth-provider.js";
import { McpOAuthStore, mcpAuthPath } from "./oauth-store.js";
import type { HttpServerSpec, ServerSpec } from "./server-config.js";

/** What the command needs from the plugin. */
export interface McpCliDeps extends McpListDeps {
  /** Every configured server for `cwd` (mcp.json, settings, config), disabled ones too. */
  servers(cwd: string): Promise<ServerSpec[]>;
  agentDir(): string;
}

/** pi 1.6's `pi mcp --help`, for the commands and options this plugin has. */
export const MCP_USAGE = `Usage:
  pi mcp add <server> [options] -- <command> [args...]
  pi mcp add <server> [options] --url <url>
  pi mcp remove <server> [-l]
  pi mcp list [--json]
  pi mcp login <server> [-l] [--timeout <seconds>] [--no-browser]
  pi mcp logout <server> [-l]

Configure and check MCP servers and sign in to OAuth servers without starting a session.
Reads ~/.pi/agent/mcp.json and, in trusted projects, .pi/mcp.json.

Commands:
  add <server>            Add or replace a server in mcp.json
  remove <server>         Remove a server from mcp.json
  list                    Show state, tools, and errors (exits 1 on failure)
  login <server>          Sign in through the browser
  logout <server>         Delete the stored OAuth credentials

Options for add, remove, login, and logout:
  -l, --local             Use .pi/mcp.json in the current project instead of the global file

Options for add:
  --url <url>             Streamable HTTP server URL (instead of a command)
  --env <KEY=VALUE>       Environment variable for a stdio server (repeatable)
  --cwd <dir>             Working directory for a stdio server
  --header <KEY=VALUE>    HTTP header (repeatable)
  --bearer-token-env-var <NAME>
                          Send "Authorization: Bearer \${NAME}"
  --oauth-client-id <id>  Pre-registered OAuth client id
  --oauth-client-secret <secret>
                          OAuth client secret (may be \${NAME} or !command)
  --oauth-callback-port <port>
                          Fixed OAuth callback port
  --oauth-client-name <name>
                          Client name sent when registering with the OAuth server
  --oauth-client-registration <mode>
                          auto (default), cimd, or dcr
  --exposure <mode>       codemode (default), deferred, direct, or hidden
  --description <text>    What the server offers, shown in the system prompt

Other options:
  --json                  Print the list as JSON
  --timeout <seconds>     Time limit for the whole sign-in (default: 300)
  --no-browser            Print the sign-in URL without opening a browser
`;

/** Runs `pi mcp <args>`; resolves with the exit code. */
export async function runMcpCli(args: string[], io: CliCommandIo, deps: McpCliDeps): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "help" || args.includes("--help") || args.includes("-h")) {
    io.stdout(MCP_USAGE);
    return 0;
  }
  if (sub === "add") return runAdd(rest, io, deps.agentDir());
  if (sub === "remove") return runRemove(rest, io, deps.agentDir());
  if (sub === "list") return runList(rest, io, deps);
  if (sub !== "login" && sub !== "logout") {
    io.stderr(`Error: unknown mcp command "${sub}"; use add, remove, list, login or logout (pi mcp --help)\n`);
    return 2;
  }
  const parsed = parseSignInArgs(sub, rest);
  if (typeof parsed === "string") {
    io.stderr(`Error: ${parsed}\n`);
    return 2;
  }
  const { name, local, noBrowser, timeoutSeconds } = parsed;
  const spec = (await deps.servers(io.cwd)).find((s) => s.name === name);
  if (spec === undefined) {
    io.stderr(`Error: no MCP server "${name}" is configured; add it to ~/.pi/agent/mcp.json\n`);
    return 1;
  }
  // pi's -l: the server must come from the project's .pi/mcp.json (read only in a trusted project).
  const projectFile = deps.paths(io.cwd).project;
  if (local && spec.valuesFrom !== projectFile) {
    io.stderr(
      `Error: MCP server "${name}" is defined in ${spec.valuesFrom ?? "the settings"}, not in the project; omit --local\n`,
    );
    return 1;
  }
  if (spec.transport !== "http") {
    io.stderr(`Error: MCP server "${name}" is a local (stdio) server; only remote servers sign in\n`);
    return 1;
  }
  const store = new McpOAuthStore(mcpAuthPath(deps.agentDir()), name, spec.url);
  if (sub === "logout") {
    io.stdout(
      store.remove() ? `Signed out of MCP server "${name}".\n` : `MCP server "${name}" had no stored sign-in.\n`,
    );
    return 0;
  }
  // pi's --timeout: a limit on the whole sign-in, requests to the authorization server included.
  const timeout = AbortSignal.timeout(timeoutSeconds * 1000);
  const signal = AbortSignal.any([io.signal, timeout]);
  try {
    await untilAborted(login(spec, store, io, noBrowser, signal), signal);
    io.stdout(`Signed in to MCP server "${name}".\n`);
    return 0;
  } catch (error) {
    if (signal.aborted)
      io.stderr(
        `Error: sign-in to MCP server "${name}" was cancelled or not completed within ${timeoutSeconds} seconds\n`,
      );
    else io.stderr(`Error: sign-in to MCP server "${name}" failed: ${(error as Error).message}\n`);
    return 1;
  }
}

/** pi 1.6's default `--timeout` of `pi mcp login`, in seconds. */
const DEFAULT_LOGIN_TIMEOUT_SECONDS = 300;

/** `login|logout <server> [-l] [--timeout <seconds>] [--no-browser]`; a string is the usage error. */
function parseSignInArgs(
  sub: "login" | "logout",
  args: string[],
): { name: string; local: boolean; noBrowser: boolean; timeoutSeconds: number } | string {
  const usage = `usage: pi mcp ${sub} <server> [-l]${sub === "login" ? " [--timeout <seconds>]" : ""}`;
  let local = false;
  let noBrowser = false;
  let timeoutSeconds = DEFAULT_LOGIN_TIMEOUT_SECONDS;
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-l" || arg === "--local") local = true;
    else if (arg === "--no-browser" && sub === "login") noBrowser = true;
    else if ((arg === "--timeout" || arg.startsWith("--timeout=")) && sub === "login") {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++i];
      if (value === undefined) return `--timeout needs a value; ${usage}`;
      timeoutSeconds = Number(value);
      if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
        return `--timeout must be a positive number of seconds, not ${JSON.stringify(value)}`;
    } else if (arg.startsWith("-")) return `unknown option ${arg}; ${usage}`;
    else names.push(arg);
  }
  if (names.length !== 1) return usage;
  return { name: names[0]!, local, noBrowser, timeoutSeconds };
}

/** `work`, or a rejection as soon as `signal` aborts (the work is left to end on its own). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error("aborted"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

async function login(
  spec: HttpServerSpec,
  store: McpOAuthStore,
  io: CliCommandIo,
  noBrowser: boolean,
  signal: AbortSignal,
): Promise<void> {
  const settings = spec.oauth ?? {};
  // A registered client stays in use while its redirect URI matches (pi 1.6), so its port is tried first.
  const registered = (store.load().clientInformation?.redirect_uris as string[] | undefined)?.[0];
  const wanted = settings.callbackPort ?? portOf(settings.callbackUrl);
  const callback = await listenForCallback(wanted ?? portOf(registered) ?? 0).catch((error: unknown) => {
    if (wanted !== undefined) throw error;
    return listenForCallback(0);
  });
  try {
    const redirectUrl = settings.callbackUrl
      ? withPort(settings.callbackUrl, callback.port)
      : `http://127.0.0.1:${callback.port}/callback`;
    if (registered !== undefined && registered !== redirectUrl)
      store.update(({ clientInformation: _c, ...rest }) => rest);
    const { auth } = await import("@modelcontextprotocol/sdk/client/auth.js");
    // A pending sign-in of an earlier attempt is not reused: a fresh state and verifier each time.
    store.update(({ codeVerifier: _v, oauthState: _s, ...rest }) => rest);
    const provider = createOAuthProvider({
      server: spec.name,
      store,
      settings,
      redirectUrl,
      onRedirect: (url) => {
        io.stderr(`Open this URL to sign in to MCP server "${spec.name}":\n${url.href}\n`);
        if (!noBrowser) openBrowser(url.href);
      },
    });
    // Every request to the authorization server ends with the sign-in's time limit.
    const fetchFn = (url: string | URL, init?: RequestInit): Promise<Response> =>
      fetch(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
    const first = await auth(provider, {
      serverUrl: spec.url,
      fetchFn,
      ...(settings.scope && { scope: settings.scope }),
    });
    if (first === "AUTHORIZED") return;
    const answer = await callback.next(signal);
    if (answer.error !== undefined) throw new Error(`the authorization server answered ${answer.error}`);
    if (answer.state !== store.load().oauthState) throw new Error("the redirect's state does not match this sign-in");
    const result = await auth(provider, { serverUrl: spec.url, authorizationCode: answer.code, fetchFn });
    if (result !== "AUTHORIZED") throw new Error("the authorization code was not accepted");
    store.update(({ codeVerifier: _v, oauthState: _s, ...rest }) => rest);
  } finally {
    callback.close();
  }
}

/** What the browser brought back to the loopback callback. */
interface CallbackAnswer {
  code?: string;
  state?: string;
  error?: string;
}

/** A loopback HTTP server on 127.0.0.1 whose `/callback…` request ends the wait. */
async function listenForCallback(
  port: number,
): Promise<{ port: number; next(signal: AbortSignal): Promise<CallbackAnswer>; close(): void }> {
  let deliver: ((answer: CallbackAnswer) => void) | undefined;
  const answers: CallbackAnswer[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (!url.pathname.startsWith("/callback")) {
      res.writeHead(404).end();
      return;
    }
    const answer: CallbackAnswer = {
      ...(url.searchParams.get("code") !== null && { code: url.searchParams.get("code")! }),
      ...(url.searchParams.get("state") !== null && { state: url.searchParams.get("state")! }),
      ...(url.searchParams.get("error") !== null && { error: url.searchParams.get("error")! }),
    };
    const ok = answer.code !== undefined && answer.error === undefined;
    res.writeHead(ok ? 200 : 400, { "content-type": "text/html; charset=utf-8" });
    res.end(
      ok
        ? "<p>Signed in to the MCP server. You may now close this page.</p>"
        : "<p>Sign-in failed; see the terminal.</p>",
    );
    if (deliver !== undefined) deliver(answer);
    else answers.push(answer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    next: (signal) =>
      new Promise<CallbackAnswer>((resolve, reject) => {
        const queued = answers.shift();
        if (queued !== undefined) return resolve(queued);
        const onAbort = (): void => reject(new Error("cancelled"));
        signal.addEventListener("abort", onAbort, { once: true });
        deliver = (answer) => {
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
        };
      }),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

function portOf(url: string | undefined): number | undefined {
  if (url === undefined) return undefined;
  const port = new URL(url).port;
  return port === "" ? undefined : Number(port);
}

/** RFC 8252: a loopback redirect without a port gets the one the callback listens on. */
function withPort(url: string, port: number): string {
  const parsed = new URL(url);
  if (parsed.port !== "") return url;
  parsed.port = String(port);
  return parsed.href;
}

/** Opens the URL where there is a desktop; elsewhere the printed URL is the way. */
function openBrowser(url: string): void {
  const desktop = process.platform !== "linux" || process.env.DISPLAY || process.env.WAYLAND_DISPLAY;
  if (!desktop) return;
  const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  const child = spawn(command, [url], { stdio: "ignore", detached: true });
  child.on("error", () => undefined);
  child.unref();
}
