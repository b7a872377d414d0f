/**
 * MCP sign-ins, stored as pi 1.6 stores them: `<agentDir>/mcp-auth.json` (mode 0600), one state per
 * server keyed `mcp__<server, - as _>|<server URL>`, holding `serverUrl`, the registered
 * `clientInformation`, the `tokens` the authorization server sent, `tokensExpireAt` (ms), and while a
 * sign-in is pending its `codeVerifier`, `oauthState` and `discovery`. A file written by pi 1.6 is read
 * as is, and pi 1.6 reads ours; the legacy key (the URL alone) is taken over on first read.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** One server's OAuth state, in pi's field names. */
export interface McpOAuthState {
  serverUrl: string;
  clientInformation?: Record<string, unknown> & { client_id: string };
  tokens?: Record<string, unknown> & { access_token: string; token_type: string; refresh_token?: string };
  tokensExpireAt?: number;
  codeVerifier?: string;
  oauthState?: string;
  discovery?: unknown;
}

/** The file's path in an agent folder. */
export function mcpAuthPath(agentDir: string): string {
  return join(agentDir, "mcp-auth.json");
}

/** The key pi 1.6 files a server's state under. */
export function stateKey(server: string, url: string): string {
  return `mcp__${server.replace(/-/g, "_")}|${String(new URL(url))}`;
}

/** The stored state of one server, read and written whole through the file each time (another process may sign in meanwhile). */
export class McpOAuthStore {
  private readonly key: string;
  private readonly legacyKey: string;
  readonly serverUrl: string;

  constructor(
    private readonly file: string,
    server: string,
    url: string,
  ) {
    this.serverUrl = String(new URL(url));
    this.key = stateKey(server, url);
    this.legacyKey = this.serverUrl;
  }

  /** The server's state; state stored for another URL under the key is ignored. */
  load(): McpOAuthState {
    const states = readStates(this.file);
    let state = states[this.key];
    if (state === undefined && states[this.legacyKey] !== undefined) {
      state = states[this.legacyKey];
      delete states[this.legacyKey];
      states[this.key] = state!;
      writeStates(this.file, states);
    }
    return state?.serverUrl === this.serverUrl ? state : { serverUrl: this.serverUrl };
  }

  /** Changes the server's state through `update` and writes the file. */
  update(update: (state: McpOAuthState) => McpOAuthState): void {
    const states = readStates(this.file);
    const current = states[this.key];
    states[this.key] = update(current?.serverUrl === this.serverUrl ? current : { serverUrl: this.serverUrl });
    writeStates(this.file, states);
  }

  /** Forgets the server's sign-in; true when something was stored. */
  remove(): boolean {
    const states = readStates(this.file);
    const key = this.key in states ? this.key : this.legacyKey in states ? this.legacyKey : undefined;
    if (key === undefined) return false;
    delete states[key];
    writeStates(this.file, states);
    return true;
  }
}

function readStates(file: string): Record<string, McpOAuthState> {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}; fix or delete the file and sign in again`);
  }
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, McpOAuthState>)
    : {};
}

/** Writes beside the file and renames it into place, so a reader never sees half a file. */
function writeStates(file: string, states: Record<string, McpOAuthState>): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(states, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
}
