/**
 * The MCP SDK's OAuthClientProvider over pi's `mcp-auth.json` (oauth-store.ts), in two roles. A
 * connection's provider sends the stored access token and lets the SDK refresh it (after a 401, with
 * the stored refresh token) but never starts a sign-in: when one is needed — nothing stored, or the
 * refresh token was refused — it throws McpSignInRequired, which names `pi mcp login <server>`. The
 * login provider (`pi mcp login`) registers a client when needed and hands the authorization URL on.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpOAuthState, McpOAuthStore } from "./oauth-store.js";
import type { OAuthSettings } from "./server-config.js";

/** A server needs the user to sign in again; the message says how. */
export class McpSignInRequired extends Error {
  constructor(readonly server: string) {
    super(`sign-in required: run "pi mcp login ${server}"`);
    this.name = "McpSignInRequired";
  }
}

/** The redirect a connection names when refreshing; the loopback callback `pi mcp login` listens on otherwise. */
const DEFAULT_REDIRECT = "http://127.0.0.1/callback";

/** What a provider is built from. */
export interface ProviderOptions {
  server: string;
  store: McpOAuthStore;
  settings: OAuthSettings;
  /** The login's loopback callback; a connection's provider has none. */
  redirectUrl?: string;
  /** Login only: where the authorization URL goes (print it, open a browser). */
  onRedirect?: (url: URL) => void | Promise<void>;
}

/** pi's client name when it registers (oauth `clientName` overrides it). */
const CLIENT_NAME = "pi";

/** An OAuthClientProvider for one server. */
export function createOAuthProvider(options: ProviderOptions): OAuthClientProvider {
  const { store, settings, server } = options;
  const login = options.onRedirect !== undefined;
  const configured: OAuthClientInformationMixed | undefined =
    settings.clientId === undefined
      ? undefined
      : {
          client_id: settings.clientId,
          ...(settings.clientSecret !== undefined && { client_secret: settings.clientSecret }),
        };
  const redirectUrl = (): string =>
    options.redirectUrl ??
    (store.load().clientInformation?.redirect_uris as string[] | undefined)?.[0] ??
    settings.callbackUrl ??
    DEFAULT_REDIRECT;
  const update = (change: (state: McpOAuthState) => McpOAuthState): void => store.update(change);
  return {
    get redirectUrl() {
      return redirectUrl();
    },
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: settings.clientName ?? CLIENT_NAME,
        redirect_uris: [redirectUrl()],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: settings.clientSecret !== undefined ? "client_secret_post" : "none",
        ...(settings.scope !== undefined && { scope: settings.scope }),
      };
    },
    state() {
      const existing = store.load().oauthState;
      if (existing !== undefined) return existing;
      const state = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex");
      update((s) => ({ ...s, oauthState: state }));
      return state;
    },
    clientInformation() {
      const state = store.load();
      // A connection never registers a client: without a sign-in there is nothing it can do alone.
      if (!login && state.tokens === undefined) throw new McpSignInRequired(server);
      return configured ?? (state.clientInformation as OAuthClientInformationMixed | undefined);
    },
    saveClientInformation(information) {
      if (configured !== undefined) return;
      update((s) => ({ ...s, clientInformation: information as McpOAuthState["clientInformation"] }));
    },
    tokens() {
      const { tokens, clientInformation } = store.load();
      if (tokens === undefined || typeof tokens.issuer === "string") return tokens as OAuthTokens | undefined;
      // Tokens written without an issuer (by pi 1.6) take the client's, which the SDK stamped when it registered.
      const issuer = clientInformation?.issuer;
      return (typeof issuer === "string" ? { ...tokens, issuer } : tokens) as OAuthTokens;
    },
    saveTokens(tokens) {
      update((s) => {
        const next: McpOAuthState = { ...s, tokens: tokens as McpOAuthState["tokens"] };
        if (tokens.expires_in === undefined) delete next.tokensExpireAt;
        else next.tokensExpireAt = Date.now() + tokens.expires_in * 1000;
        return next;
      });
    },
    async redirectToAuthorization(url) {
      if (options.onRedirect === undefined) throw new McpSignInRequired(server);
      await options.onRedirect(url);
    },
    saveCodeVerifier(codeVerifier) {
      update((s) => ({ ...s, codeVerifier }));
    },
    codeVerifier() {
      const verifier = store.load().codeVerifier;
      if (verifier === undefined) throw new Error("no OAuth PKCE code verifier is stored; run the sign-in again");
      return verifier;
    },
    invalidateCredentials(kind) {
      update((s) => {
        const next = { ...s };
        if (kind === "all" || kind === "client") delete next.clientInformation;
        if (kind === "all" || kind === "tokens") {
          delete next.tokens;
          delete next.tokensExpireAt;
        }
        if (kind === "all" || kind === "verifier") delete next.codeVerifier;
        if (kind === "all" || kind === "discovery") delete next.discovery;
        if (kind === "all") delete next.oauthState;
        return next;
      });
    },
  };
}

/** Whether a server authenticates with OAuth: an HTTP server whose headers set no `Authorization`. */
export function usesOAuth(headers: Record<string, string>): boolean {
  return !Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
}
