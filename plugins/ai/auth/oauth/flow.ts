/** What every account sign-in flow implements, and the credential it stores in auth.json (pi's format). */
import type { LoginInteraction, RequestAuth } from "pi-host";

/** An `"type": "oauth"` auth.json entry: pi's fields, plus any the flow adds (accountId, enterpriseUrl, ...). */
export interface OAuthCredential {
  type: "oauth";
  refresh: string;
  access: string;
  /** When the access token stops working, in ms since the epoch (already a little early, as pi stores it). */
  expires: number;
  [field: string]: unknown;
}

/** What a sign-in may need from the installation beyond the environment. */
export interface LoginContext {
  /** This installation's stable id (a UUID kept in settings.json as pi keeps it). */
  deviceId(): Promise<string>;
  /** The agent folder (auth.json's), for what a sign-in keeps beside the credential. */
  agentDir: string;
}

/** One provider's sign-in. `env` carries the endpoint overrides (endpoints.ts). */
export interface OAuthFlow {
  id: string;
  name: string;
  login(interaction: LoginInteraction, env: NodeJS.ProcessEnv, context: LoginContext): Promise<OAuthCredential>;
  /** New tokens from the refresh token; throws RevokedTokenError when the server refuses it. */
  refresh(credential: OAuthCredential, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<OAuthCredential>;
  /** How requests authenticate with this credential. */
  requestAuth(credential: OAuthCredential, env: NodeJS.ProcessEnv): RequestAuth;
}
