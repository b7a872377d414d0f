/**
 * `pi auth login|logout|print-api-key|print-bearer-token|check`, with pi 1.6's usage, messages and exit
 * codes, so scripts written for pi keep working. The host composes the distribution and talks to the
 * auth plugin only through AuthContract and AccountAuthContract; it names no plugin.
 */
import { join } from "node:path";
import {
  AccountAuthContract,
  AuthContract,
  ModelsContract,
  type AccountAuth,
  type AuthStore,
  type ModelCatalog,
} from "../contracts/ai/index.js";
import type { Kernel } from "../kernel/index.js";
import { runLogin, type Terminal } from "./auth-login.js";
import type { PackagePaths } from "./cli-compose.js";

/** pi 1.6's `pi auth --help`, word for word. */
export const AUTH_USAGE = `Usage:
  pi auth login <provider> [--api-key] [--no-browser]
  pi auth logout <provider>
  pi auth print-api-key [--provider <provider>] [--model <model>]
  pi auth print-bearer-token [--provider <provider>] [--model <model>] [--min-expiry <duration>]
  pi auth check [--provider <provider>] [--model <model>] [--json] [--credentials] [--no-refresh]

Log in to and out of model providers, print their credentials for external clients, or check that they are ready.
Credentials are stored in ~/.pi/agent/auth.json.

Commands:
  login <provider>        Sign in with an account in the browser, or save an API key, then exit
  logout <provider>       Remove the stored credentials; environment variables and models.json stay
  print-api-key           Print the resolved API key
  print-bearer-token      Print a resolved OAuth bearer token (refreshes if expired)
  check                   Print ready, not_ready, or invalid; exit with 0, 1, or 2

Options for print-api-key, print-bearer-token, and check (at least one is required):
  --provider <provider>   Resolve credentials for a provider
  --model <model>         Resolve credentials from a model

Options for login:
  --api-key               Save an API key instead of signing in with an account
  --no-browser            Do not open a browser; use another sign-in method, e.g. device code

Other options:
  --min-expiry <duration> Minimum remaining token lifetime for print-bearer-token, e.g. 30m or 1h
  --json                  Print the check result as JSON
  --credentials           Emit the credential from check, or include it in JSON output
  --no-refresh            Do not refresh expired OAuth credentials during check
`;

const SUBCOMMANDS = ["login", "logout", "print-api-key", "print-bearer-token", "check"];
/** print-bearer-token's default minimum lifetime (pi's): a token handed to another tool should last a while. */
const DEFAULT_MIN_EXPIRY_MS = 30 * 60_000;

/** Where the command runs. */
export interface AuthCliOptions {
  agentDir: string;
  cwd: string;
  paths: PackagePaths;
  terminal: Terminal;
}

/** A usage or lookup problem: printed as `Error: <message>`, exit 1. */
class AuthCommandError extends Error {}

/** Runs `pi auth <args>` and returns the exit code. */
export async function runAuthCommand(args: string[], options: AuthCliOptions): Promise<number> {
  const { terminal } = options;
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
    terminal.write(AUTH_USAGE.trimEnd());
    return 0;
  }
  if (!SUBCOMMANDS.includes(sub)) {
    terminal.error(
      `Error: Unknown auth command "${sub}". Use "pi auth login", "pi auth logout", "pi auth print-api-key", "pi auth print-bearer-token", or "pi auth check".`,
    );
    return 1;
  }
  let flags: Flags | undefined;
  try {
    if (sub !== "login" && sub !== "logout") flags = parseFlags(rest, sub);
  } catch (error) {
    terminal.error(`Error: ${(error as Error).message}`);
    return 1;
  }
  const kernel = await compose(options);
  if (typeof kernel === "number") return kernel;
  try {
    const accounts = kernel.use(AccountAuthContract);
    const auth = kernel.use(AuthContract);
    if (!accounts.available || !auth.available) {
      terminal.error(
        "Error: no plugin provides account sign-in (ai/auth-account); enable the auth plugin in plugins.json",
      );
      return 1;
    }
    const models = kernel.use(ModelsContract);
    const catalog = models.available ? models.api : undefined;
    if (sub === "login")
      return await runLogin(rest, {
        accounts: accounts.api,
        auth: auth.api,
        catalog,
        terminal,
        authFile: join(options.agentDir, "auth.json"),
      });
    if (sub === "logout") return await logout(rest, accounts.api, catalog, terminal);
    const provider = providerOf(flags!, catalog);
    if (sub === "check") return await check(provider, flags!, accounts.api, auth.api, catalog, terminal);
    return await printCredential(sub, provider, flags!, accounts.api, auth.api, terminal);
  } catch (error) {
    terminal.error(`Error: ${(error as Error).message}`);
    return 1;
  } finally {
    await kernel.shutdown();
  }
}

async function compose(options: AuthCliOptions): Promise<Kernel | number> {
  const { composeForCli } = await import("./cli-compose.js");
  const composed = await composeForCli({ distributions: [], plugins: [], noPlugins: [] }, {}, options);
  return typeof composed === "number" ? composed : composed.kernel;
}

interface Flags {
  provider?: string;
  model?: string;
  minExpiryMs?: number;
  json: boolean;
  credentials: boolean;
  refresh: boolean;
}

function parseFlags(args: string[], sub: string): Flags {
  const flags: Flags = { json: false, credentials: false, refresh: true };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined || next.startsWith("--")) throw new AuthCommandError(`${arg} needs a value`);
      return next;
    };
    if (arg === "--provider") flags.provider = value();
    else if (arg === "--model") flags.model = value();
    else if (arg === "--min-expiry") {
      if (sub !== "print-bearer-token")
        throw new AuthCommandError("--min-expiry is only supported by print-bearer-token");
      const ms = parseDuration(value());
      if (ms === undefined) throw new AuthCommandError("--min-expiry must use a duration such as 30m or 1h");
      flags.minExpiryMs = ms;
    } else if (arg === "--json" || arg === "--credentials" || arg === "--no-refresh") {
      if (sub !== "check") throw new AuthCommandError(`${arg} is only supported by auth check`);
      if (arg === "--json") flags.json = true;
      else if (arg === "--credentials") flags.credentials = true;
      else flags.refresh = false;
    } else if (arg.startsWith("--")) throw new AuthCommandError(`Unknown option ${arg} for "pi auth ${sub}".`);
    else throw new AuthCommandError("Auth commands only accept --provider and --model");
  }
  if (flags.provider === undefined && flags.model === undefined) {
    throw new AuthCommandError(
      sub === "check"
        ? "Auth checks require --provider <provider> or --model <model>"
        : "Credential printing requires --provider <provider> or --model <model>",
    );
  }
  return flags;
}

/** `30m`, `1h`, `90s`, `2d` or plain milliseconds → ms. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (match === null) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? "ms"]!;
  return Number(match[1]) * unit;
}

function providerOf(flags: Flags, catalog: ModelCatalog | undefined): string {
  if (flags.model === undefined) return flags.provider!;
  if (catalog === undefined) throw new AuthCommandError("no model catalog plugin is enabled; pass --provider");
  return catalog.resolve(flags.model, flags.provider).model.provider;
}

async function printCredential(
  sub: string,
  provider: string,
  flags: Flags,
  accounts: AccountAuth,
  auth: AuthStore,
  terminal: Terminal,
): Promise<number> {
  const stored = (await accounts.stored()).find((entry) => entry.provider === provider);
  if (sub === "print-bearer-token") {
    if (stored?.type !== "oauth")
      throw new AuthCommandError(`Provider "${provider}" is not configured with an OAuth bearer token`);
    const request = await accounts.requestAuth(provider, { minValidityMs: flags.minExpiryMs ?? DEFAULT_MIN_EXPIRY_MS });
    if (request === undefined) throw new AuthCommandError("No usable OAuth bearer token is configured");
    terminal.write(request.apiKey);
    return 0;
  }
  if (stored?.type === "oauth")
    throw new AuthCommandError(`Provider "${provider}" is configured with OAuth, not an API key`);
  const key = await auth.apiKey(provider);
  if (key === undefined) throw new AuthCommandError("No usable API key is configured");
  terminal.write(key);
  return 0;
}

async function check(
  provider: string,
  flags: Flags,
  accounts: AccountAuth,
  auth: AuthStore,
  catalog: ModelCatalog | undefined,
  terminal: Terminal,
): Promise<number> {
  type Result = { status: string; provider: string; authType?: string; reason?: string; credential?: string };
  let result: Result;
  // A provider with a sign-in is known even while the catalog lists no model of it (Meta, Radius).
  const known =
    catalog === undefined ||
    catalog.list().some((model) => model.provider === provider) ||
    accounts.loginProviders().some((p) => p.id === provider);
  if (!known) result = { status: "not_ready", provider, reason: "provider_not_found" };
  else {
    try {
      const stored = (await accounts.stored()).find((entry) => entry.provider === provider);
      let credential: string | undefined;
      if (stored?.type === "oauth") {
        credential = flags.refresh
          ? (await accounts.requestAuth(provider))?.apiKey
          : (await accounts.requestAuth(provider, { minValidityMs: Number.NEGATIVE_INFINITY }))?.apiKey;
      } else credential = await auth.apiKey(provider);
      result =
        credential === undefined
          ? { status: "not_ready", provider, reason: "credentials_not_configured" }
          : {
              status: "ready",
              provider,
              authType: stored?.type === "oauth" ? "oauth" : "api_key",
              ...(flags.credentials ? { credential } : {}),
            };
    } catch {
      result = { status: "invalid", provider, reason: "invalid_state" };
    }
  }
  if (flags.json) terminal.write(JSON.stringify(result));
  else if (flags.credentials && result.credential !== undefined) terminal.write(result.credential);
  else terminal.write(result.status);
  return result.status === "ready" ? 0 : result.status === "not_ready" ? 1 : 2;
}

async function logout(
  args: string[],
  accounts: AccountAuth,
  catalog: ModelCatalog | undefined,
  terminal: Terminal,
): Promise<number> {
  const [provider, ...rest] = args;
  if (provider === undefined || provider.startsWith("-") || rest.length > 0) {
    terminal.error("Usage: pi auth logout <provider>");
    return 1;
  }
  const stored = await accounts.stored();
  const entry = stored.find((candidate) => candidate.provider === provider);
  const known = catalog?.list().some((model) => model.provider === provider) ?? false;
  if (entry === undefined && !known) {
    terminal.error(`Unknown provider "${provider}".`);
    terminal.error(
      `Stored credentials: ${
        stored
          .map((s) => s.provider)
          .sort()
          .join(", ") || "none"
      }`,
    );
    return 1;
  }
  const name = accounts.loginProviders().find((p) => p.id === provider)?.name ?? provider;
  if (entry === undefined) {
    terminal.write(`No stored credentials for ${name}. Environment variables and models.json config are unchanged.`);
    return 0;
  }
  await accounts.logout(provider);
  terminal.write(
    entry.type === "oauth"
      ? `Logged out of ${name}.`
      : `Removed stored API key for ${name}. Environment variables and models.json config are unchanged.`,
  );
  return 0;
}
