/**
 * A local OAuth authorization server and an MCP server (streamable HTTP) that requires its bearer
 * tokens, on one 127.0.0.1 port, for the MCP sign-in tests. The authorization server publishes RFC 8414
 * metadata, registers clients dynamically, approves every authorization request at once (302 back to the
 * redirect URI with a code), checks PKCE, and issues rotating refresh tokens; the MCP server publishes
 * RFC 9728 protected-resource metadata and answers 401 with a `WWW-Authenticate` challenge to a missing,
 * unknown or expired token. Tests expire access tokens and revoke refresh tokens to drive refreshes.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
}

/** The two servers and what they saw. */
export class McpOAuthServers {
  url = "";
  /** Access tokens that the MCP server accepts. */
  readonly accessTokens = new Set<string>();
  readonly refreshTokens = new Set<string>();
  readonly clients = new Map<string, Record<string, unknown>>();
  /** Grant types the token endpoint answered, in order (`authorization_code`, `refresh_token`, `refresh_token:refused`). */
  readonly grants: string[] = [];
  /** Tool calls the MCP server ran, with the token that authorized each. */
  readonly calls: Array<{ tool: string; token: string }> = [];
  private readonly codes = new Map<string, PendingCode>();
  private server: Server | undefined;

  /** The MCP endpoint. */
  get mcpUrl(): string {
    return `${this.url}/mcp`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Every access token issued so far stops working (as if it expired). */
  expireAccessTokens(): void {
    this.accessTokens.clear();
  }

  /** Every refresh token issued so far is refused (`invalid_grant`). */
  revokeRefreshTokens(): void {
    this.refreshTokens.clear();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.url);
    const path = url.pathname;
    if (path === "/.well-known/oauth-protected-resource/mcp" || path === "/.well-known/oauth-protected-resource")
      return json(res, 200, { resource: this.mcpUrl, authorization_servers: [this.url] });
    if (path === "/.well-known/oauth-authorization-server")
      return json(res, 200, {
        issuer: this.url,
        authorization_endpoint: `${this.url}/authorize`,
        token_endpoint: `${this.url}/token`,
        registration_endpoint: `${this.url}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    if (path === "/register" && req.method === "POST") {
      const metadata = JSON.parse(await body(req)) as Record<string, unknown>;
      const clientId = `client-${this.clients.size + 1}`;
      this.clients.set(clientId, metadata);
      return json(res, 201, { ...metadata, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) });
    }
    if (path === "/authorize") return this.authorize(url, res);
    if (path === "/token" && req.method === "POST") return this.token(new URLSearchParams(await body(req)), res);
    if (path === "/mcp") return this.mcp(req, res);
    res.writeHead(404).end();
  }

  private authorize(url: URL, res: ServerResponse): void {
    const clientId = url.searchParams.get("client_id") ?? "";
    const redirectUri = url.searchParams.get("redirect_uri") ?? "";
    const client = this.clients.get(clientId);
    if (client === undefined || !(client.redirect_uris as string[]).includes(redirectUri)) {
      res.writeHead(400).end("unknown client or redirect URI");
      return;
    }
    const code = randomBytes(12).toString("hex");
    this.codes.set(code, { clientId, redirectUri, challenge: url.searchParams.get("code_challenge") ?? "" });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    const state = url.searchParams.get("state");
    if (state !== null) back.searchParams.set("state", state);
    res.writeHead(302, { location: back.href }).end();
  }

  private token(form: URLSearchParams, res: ServerResponse): void {
    const grant = form.get("grant_type");
    if (grant === "authorization_code") {
      const pending = this.codes.get(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      if (pending === undefined || pending.challenge !== challenge || pending.redirectUri !== form.get("redirect_uri"))
        return json(res, 400, { error: "invalid_grant", error_description: "bad code, verifier or redirect URI" });
      this.codes.delete(form.get("code")!);
      this.grants.push("authorization_code");
      return json(res, 200, this.issue());
    }
    if (grant === "refresh_token") {
      const refresh = form.get("refresh_token") ?? "";
      if (!this.refreshTokens.delete(refresh)) {
        this.grants.push("refresh_token:refused");
        return json(res, 400, { error: "invalid_grant", error_description: "the refresh token was revoked" });
      }
      this.grants.push("refresh_token");
      return json(res, 200, this.issue());
    }
    json(res, 400, { error: "unsupported_grant_type" });
  }

  /** Tokens issued outside a sign-in, as another client (pi 1.6) would hold them. */
  mint(): { access_token: string; token_type: string; expires_in: number; refresh_token: string } {
    return this.issue() as ReturnType<McpOAuthServers["mint"]>;
  }

  private issue(): Record<string, unknown> {
    const access = `at-${randomBytes(8).toString("hex")}`;
    const refresh = `rt-${randomBytes(8).toString("hex")}`;
    this.accessTokens.add(access);
    this.refreshTokens.add(refresh);
    return { access_token: access, token_type: "Bearer", expires_in: 3600, refresh_token: refresh };
  }

  /** The MCP server, stateless: a fresh server and transport per request, after the bearer check. */
  private async mcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const header = req.headers.authorization ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7) : "";
    if (!this.accessTokens.has(token)) {
      res.writeHead(401, {
        "www-authenticate": `Bearer error="invalid_token", resource_metadata="${this.url}/.well-known/oauth-protected-resource/mcp"`,
        "content-type": "application/json",
      });
      res.end(JSON.stringify({ error: "invalid_token" }));
      return;
    }
    const server = new McpServer({ name: "remote", version: "1.0.0" });
    server.registerTool("whoami", { description: "Says who the caller is" }, async () => {
      this.calls.push({ tool: "whoami", token });
      return { content: [{ type: "text", text: "you are signed in" }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    const raw = await body(req);
    await transport.handleRequest(req, res, raw === "" ? undefined : JSON.parse(raw));
  }
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (data += chunk));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}
