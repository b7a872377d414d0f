/**
 * `pi auth login <provider> [--api-key] [--no-browser]`: an account sign-in (browser or device code)
 * or a saved API key, answered on the terminal as pi 1.6 answers it. The terminal side is an interface
 * so the same flow runs under a test's script.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { AccountAuth, AuthStore, LoginInteraction, LoginPrompt, ModelCatalog } from "../contracts/ai/index.js";
import { closestSpelling } from "./edit-distance.js";

/** The user's terminal: lines out, questions in. */
export interface Terminal {
  interactive: boolean;
  write(line: string): void;
  error(line: string): void;
  question(message: string, signal: AbortSignal): Promise<string>;
  openUrl(url: string): void;
}

const USAGE = "pi auth login <provider> [--api-key] [--no-browser]";

/** Runs the login and returns the exit code. */
export async function runLogin(
  args: string[],
  deps: {
    accounts: AccountAuth;
    auth: AuthStore;
    catalog: ModelCatalog | undefined;
    terminal: Terminal;
    authFile: string;
  },
): Promise<number> {
  const { accounts, auth, catalog, terminal } = deps;
  let provider: string | undefined;
  let apiKey = false;
  let browser = true;
  for (const arg of args) {
    if (arg === "--api-key") apiKey = true;
    else if (arg === "--no-browser") browser = false;
    else if (arg.startsWith("-") || provider !== undefined) provider = "";
    else provider = arg;
  }
  if (provider === undefined || provider === "") {
    terminal.error(`Usage: ${USAGE}`);
    return 1;
  }
  if (apiKey && !browser) {
    terminal.error("--no-browser only applies to account sign-in; omit it with --api-key.");
    return 1;
  }
  const account = accounts.loginProviders().find((p) => p.id === provider);
  const catalogProviders = new Set(catalog?.list().map((model) => model.provider) ?? []);
  if (account === undefined && !catalogProviders.has(provider)) {
    const all = new Set([...catalogProviders, ...accounts.loginProviders().map((p) => p.id)]);
    terminal.error(`Unknown provider "${provider}".`);
    terminal.error(`Providers: ${[...all].sort().join(", ")}`);
    // pi 1.6's two lines, then the likely meaning of a typo.
    const closest = closestSpelling(provider, [...all]);
    if (closest !== undefined) terminal.error(`Did you mean "${closest}"? Run "pi auth login ${closest}".`);
    return 1;
  }
  if (!terminal.interactive) {
    terminal.error(`"${USAGE}" requires an interactive terminal`);
    return 1;
  }
  const name = account?.name ?? provider;
  const file = deps.authFile;
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once("SIGINT", onSigint);
  try {
    if (account === undefined || apiKey) {
      if (apiKey && account !== undefined && !catalogProviders.has(provider)) {
        terminal.error(`${name} has no API key login. Omit --api-key to sign in.`);
        return 1;
      }
      const key = (await terminal.question(`Enter the API key for ${name}: `, abort.signal)).trim();
      if (key === "") {
        terminal.error("No API key entered; nothing was saved.");
        return 1;
      }
      await auth.setApiKey(provider, key);
      terminal.write(`Saved API key for ${name}. Credentials saved to ${file}`);
      return 0;
    }
    await accounts.login(provider, terminalInteraction(provider, browser, terminal, abort.signal));
    terminal.write(`Logged in to ${name}. Credentials saved to ${file}`);
    return 0;
  } catch (error) {
    const message = (error as Error).message;
    if (abort.signal.aborted || message === "Login cancelled") terminal.error("Login cancelled.");
    else terminal.error(`Failed to log in to ${name}: ${message}`);
    return 1;
  } finally {
    process.off("SIGINT", onSigint);
  }
}

/** The login's questions and notices on the terminal; `--no-browser` picks the other sign-in method. */
export function terminalInteraction(
  provider: string,
  browser: boolean,
  terminal: Terminal,
  signal: AbortSignal,
): LoginInteraction {
  let skipped: string | undefined;
  return {
    signal,
    async prompt(prompt: LoginPrompt): Promise<string> {
      if (prompt.type === "select") {
        const [first, ...others] = prompt.options;
        if (first === undefined) throw new Error("the sign-in offered no method");
        if (browser || others.length === 0) {
          skipped = others[0]?.label;
          return first.id;
        }
        terminal.write(`${prompt.message} ${others[0]!.label}`);
        return others[0]!.id;
      }
      const both = prompt.signal ? AbortSignal.any([signal, prompt.signal]) : signal;
      const placeholder = prompt.placeholder ? ` (${prompt.placeholder})` : "";
      return terminal.question(`${prompt.message}${placeholder}: `, both);
    },
    notify(event) {
      if (event.type === "auth_url") {
        terminal.write(`Open this URL to sign in:\n  ${event.url}`);
        if (event.instructions) terminal.write(event.instructions);
        if (browser) terminal.openUrl(event.url);
        if (skipped !== undefined)
          terminal.write(`To use "${skipped}" instead, run "pi auth login ${provider} --no-browser"`);
      } else if (event.type === "device_code") {
        terminal.write(`Open ${event.verificationUri} and enter code: ${event.userCode}`);
        if (browser) terminal.openUrl(event.verificationUri);
        terminal.write("Waiting for authentication...");
      } else terminal.write(event.message);
    },
  };
}

/** The process's own terminal: stdout/stderr lines, questions read from stdin, URLs opened when a desktop is there. */
export function processTerminal(): Terminal {
  return {
    interactive: process.stdin.isTTY === true,
    write: (line) => process.stdout.write(`${line}\n`),
    error: (line) => process.stderr.write(`${line}\n`),
    question(message, signal) {
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      return new Promise<string>((resolve, reject) => {
        const onAbort = () => {
          rl.close();
          reject(new Error("Login cancelled"));
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        rl.question(message, (answer) => {
          signal.removeEventListener("abort", onAbort);
          rl.close();
          resolve(answer);
        });
      });
    },
    openUrl(url) {
      const desktop = process.platform !== "linux" || process.env.DISPLAY || process.env.WAYLAND_DISPLAY;
      if (!desktop) return;
      const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
      const child = spawn(command, [url], { stdio: "ignore", detached: true });
      child.on("error", () => undefined);
      child.unref();
    },
  };
}
