/**
 * OAuth credentials in auth.json: sign-in, sign-out, and the refresh before expiry. A refresh happens
 * under the auth.json lock and re-reads the file first, so of two `pi` processes (or two requests in
 * one) that find the token expiring, one refreshes and the other uses the tokens it stored. A refresh
 * token the server refuses becomes one line telling the user to sign in again.
 */
import { dirname } from "node:path";
import type { AccountAuth, LoginInteraction, LoginProvider, RequestAuth } from "pi-host";
import { withFileLock } from "pi-host";
import type { AuthEntry, AuthFile } from "./auth-file.js";
import { installationDeviceId } from "./oauth/device-id.js";
import type { OAuthCredential, OAuthFlow } from "./oauth/flow.js";
import { OAUTH_FLOWS } from "./oauth/flows.js";
import { RevokedTokenError } from "./oauth/http.js";

/** Refresh when the token has less than this left (pi's margin). */
const DEFAULT_MIN_VALIDITY_MS = 5 * 60 * 1000;

/** The AccountAuthContract implementation over one auth.json. */
export class OAuthStore implements AccountAuth {
  constructor(
    private readonly file: () => AuthFile,
    private readonly envOf: () => NodeJS.ProcessEnv,
  ) {}

  private get env(): NodeJS.ProcessEnv {
    return this.envOf();
  }

  loginProviders(): LoginProvider[] {
    return [...OAUTH_FLOWS.values()].map((flow) => ({ id: flow.id, name: flow.name }));
  }

  async login(provider: string, interaction: LoginInteraction): Promise<void> {
    const flow = this.flow(provider);
    const agentDir = dirname(this.file().path);
    const credential = await flow.login(interaction, this.env, {
      deviceId: () => installationDeviceId(agentDir),
      agentDir,
    });
    await this.file().update(provider, () => credential);
  }

  async logout(provider: string): Promise<string | undefined> {
    const removed = await this.file().update(provider, () => undefined);
    return removed?.type;
  }

  async stored(): Promise<{ provider: string; type: string }[]> {
    return Object.entries(await this.file().read()).map(([provider, entry]) => ({ provider, type: entry.type }));
  }

  async requestAuth(
    provider: string,
    options: { minValidityMs?: number; signal?: AbortSignal } = {},
  ): Promise<RequestAuth | undefined> {
    const entry = (await this.file().read())[provider];
    if (!isOAuth(entry)) return undefined;
    const flow = OAUTH_FLOWS.get(provider);
    // An OAuth entry of a provider this plugin has no flow for (an extension's): its access token as is.
    if (flow === undefined) return { apiKey: entry.access };
    const minValidity = options.minValidityMs ?? DEFAULT_MIN_VALIDITY_MS;
    const current =
      entry.expires - Date.now() >= minValidity ? entry : await this.refresh(flow, minValidity, options.signal);
    return flow.requestAuth(current, this.env);
  }

  private async refresh(
    flow: OAuthFlow,
    minValidity: number,
    signal: AbortSignal | undefined,
  ): Promise<OAuthCredential> {
    const file = this.file();
    return withFileLock(file.path, async () => {
      const data = await file.readFresh();
      const entry = data[flow.id];
      if (!isOAuth(entry)) throw new Error(`not signed in to ${flow.name}; run "pi auth login ${flow.id}"`);
      // Another process refreshed while this one waited for the lock.
      if (entry.expires - Date.now() >= minValidity) return entry;
      let next: OAuthCredential;
      try {
        next = await flow.refresh(entry, this.env, signal);
      } catch (error) {
        if (error instanceof RevokedTokenError) {
          throw new Error(`the ${flow.name} sign-in was revoked or has expired; run "pi auth login ${flow.id}"`);
        }
        throw new Error(`could not refresh the ${flow.name} sign-in: ${(error as Error).message}`);
      }
      await file.writeEntryLocked(data, flow.id, next);
      return next;
    });
  }

  private flow(provider: string): OAuthFlow {
    const flow = OAUTH_FLOWS.get(provider);
    if (flow === undefined) {
      throw new Error(`"${provider}" has no account sign-in; providers: ${[...OAUTH_FLOWS.keys()].join(", ")}`);
    }
    return flow;
  }
}

/** Whether an auth.json entry is a usable OAuth credential. */
export function isOAuth(entry: AuthEntry | undefined): entry is OAuthCredential {
  return entry?.type === "oauth" && typeof entry.access === "string" && typeof entry.expires === "number";
}
