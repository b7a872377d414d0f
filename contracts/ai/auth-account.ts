/**
 * Account sign-in (OAuth) for subscription providers — Claude Pro/Max, ChatGPT (Codex), GitHub Copilot —
 * kept apart from AuthContract so a plain API-key store needs none of it. The auth plugin provides
 * both; the `ai/llm` router asks `requestAuth` for the bearer, base URL and headers of a signed-in
 * provider, and the CLI's `pi auth` and the TUI's `/login` drive `login` through a `LoginInteraction`.
 */
import { defineContract } from "../../kernel/index.js";

/** A question a login flow asks: pick one option, or type a line (a pasted code, a domain). */
export type LoginPrompt =
  | { type: "select"; message: string; options: { id: string; label: string }[] }
  | { type: "text" | "manual_code"; message: string; placeholder?: string; signal?: AbortSignal };

/** What a login flow shows the user while it runs. */
export type LoginEvent =
  | { type: "auth_url"; url: string; instructions?: string }
  | { type: "device_code"; userCode: string; verificationUri: string }
  | { type: "progress"; message: string };

/** The user side of a login: the CLI answers in the terminal, the TUI in a dialog, a test by script. */
export interface LoginInteraction {
  signal: AbortSignal;
  prompt(prompt: LoginPrompt): Promise<string>;
  notify(event: LoginEvent): void;
}

/** How a request to a signed-in provider authenticates. */
export interface RequestAuth {
  /** The bearer token (or key) to send. */
  apiKey: string;
  /** Replaces the model's base URL (Copilot's per-account endpoint). */
  baseUrl?: string;
  /** Extra headers the provider needs (Codex's account id, Copilot's editor headers). */
  headers?: Record<string, string>;
}

/** One provider that supports account sign-in. */
export interface LoginProvider {
  id: string;
  name: string;
}

/** Account sign-in, stored tokens and their refresh. */
export interface AccountAuth {
  /** The providers that can sign in with an account. */
  loginProviders(): LoginProvider[];
  /** Runs the provider's sign-in and stores the tokens in auth.json. */
  login(provider: string, interaction: LoginInteraction): Promise<void>;
  /** Removes the stored credential; returns its type, or undefined when there was none. */
  logout(provider: string): Promise<string | undefined>;
  /** The providers with a stored credential and its type ("oauth" or "api_key"). */
  stored(): Promise<{ provider: string; type: string }[]>;
  /**
   * Request auth for a provider signed in with an account, refreshed first when it expires within
   * `minValidityMs` (default 5 minutes); undefined when the provider has no OAuth credential.
   * Throws one line (`run "pi auth login <provider>"`) when the refresh token was revoked.
   */
  requestAuth(
    provider: string,
    options?: { minValidityMs?: number; signal?: AbortSignal },
  ): Promise<RequestAuth | undefined>;
}

export const AccountAuthContract = defineContract<AccountAuth>({
  id: "ai/auth-account",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: {
    loginProviders: "function",
    login: "function",
    logout: "function",
    stored: "function",
    requestAuth: "function",
  },
  methods: { loginProviders: "sync", login: "async", logout: "async", stored: "async", requestAuth: "async" },
});
