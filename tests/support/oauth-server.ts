/**
 * A local sign-in and model server on 127.0.0.1 speaking the wire formats pi's account logins use:
 * an authorize endpoint that redirects (the test plays the browser), PKCE-checked token endpoints
 * (Anthropic's JSON one, OpenAI's form one), GitHub's device code and Copilot token endpoints, and an
 * Anthropic `/v1/messages` that streams a reply only for a bearer it issued. It counts refreshes.
 * Also: Sign in with ChatGPT (a registration callback naming the issued client id), Meta's device code
 * and API-key mint, the Radius gateway (discovery, browser and device grants), and a Responses API
 * `/responses` (and `/v1/responses`) stream and pi's own `/v1/messages` protocol for the signed-in bearers.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { messageItem, responseStream } from "../fixtures/sse/openai-responses/envelope.js";

/** A request as the server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

/** A JWT-shaped Codex access token naming `accountId` (unsigned: only its claims are read). */
export function codexAccessToken(accountId: string, serial: number): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${encode({ alg: "none" })}.${encode({ "https://api.openai.com/auth": { chatgpt_account_id: accountId }, n: serial })}.sig`;
}

/** The server. */
export class OAuthTestServer {
  readonly requests: SeenRequest[] = [];
  refreshCount = 0;
  /** Refresh tokens the server refuses (400 invalid_grant). */
  readonly revoked = new Set<string>();
  /** Access tokens the model endpoint accepts. */
  readonly validAccess = new Set<string>();
  /** Seconds each issued access token lives. */
  expiresIn = 3600;
  /** Device-code polls answered "pending" before the grant. */
  pendingPolls = 1;
  /** Holds each refresh this long, so concurrent refreshers would overlap if nothing serialized them. */
  refreshDelayMs = 0;
  /** The client id the ChatGPT registration issues (named in the redirect). */
  readonly chatgptClientId = "app_issued_7";
  /** Meta identity tokens the key mint accepts (login adds one; revoke by deleting). */
  readonly metaIdentities = new Set<string>();
  url = "";
  private server: Server | undefined;
  private serial = 0;
  private readonly challenges = new Map<string, string>();
  private readonly refreshTokens = new Set<string>();

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Issues a refresh token the token endpoint will accept (for auth.json fixtures). */
  issueRefresh(token: string): string {
    this.refreshTokens.add(token);
    return token;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", this.url);
    let body: Record<string, unknown> = {};
    if (text !== "") {
      body = (req.headers["content-type"] ?? "").includes("json")
        ? (JSON.parse(text) as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(text));
    }
    this.requests.push({ method: req.method ?? "GET", path: url.pathname, headers: req.headers, body });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    switch (url.pathname) {
      case "/oauth/authorize": {
        // The user approves at once: back to the app's redirect URI with a code bound to the challenge.
        const code = `code-${++this.serial}`;
        this.challenges.set(code, url.searchParams.get("code_challenge") ?? "");
        const target = new URL(url.searchParams.get("redirect_uri")!);
        target.searchParams.set("code", code);
        target.searchParams.set("state", url.searchParams.get("state") ?? "");
        res.writeHead(302, { location: target.toString() });
        res.end();
        return;
      }
      case "/api/accounts/authorize":
      case "/radius/authorize": {
        // The user approves; ChatGPT's registration also names the client id it issued.
        const code = `code-${++this.serial}`;
        this.challenges.set(code, url.searchParams.get("code_challenge") ?? "");
        const target = new URL(url.searchParams.get("redirect_uri")!);
        target.searchParams.set("code", code);
        target.searchParams.set("state", url.searchParams.get("state") ?? "");
        if (url.pathname === "/api/accounts/authorize") target.searchParams.set("client_id", this.chatgptClientId);
        res.writeHead(302, { location: target.toString() });
        res.end();
        return;
      }
      case "/api/accounts/oauth/token":
        if (body.client_id !== this.chatgptClientId || body.resource !== "https://api.openai.com/v1")
          return json(400, { error: "invalid_client" });
        return this.token("chatgpt", body, json);
      case "/oidc/device/authorization/":
        return json(200, {
          device_code: "dev-meta",
          user_code: "META-2468",
          verification_uri: `${this.url}/meta/device`,
          interval: 1,
          expires_in: 120,
        });
      case "/oidc/device/token/": {
        if (body.device_code !== "dev-meta") return json(400, { error: "invalid_grant" });
        if (this.pendingPolls-- > 0) return json(400, { error: "authorization_pending" });
        const identity = `meta-identity-${++this.serial}`;
        this.metaIdentities.add(identity);
        return json(200, { access_token: identity, token_type: "Bearer", expires_in: 5_184_000 });
      }
      case "/muse-code/key": {
        const identity = (req.headers.authorization ?? "").replace(/^Bearer /, "");
        if (!this.metaIdentities.has(identity)) return json(401, { detail: "Session expired" });
        this.refreshCount++;
        if (this.refreshDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.refreshDelayMs));
        const key = `meta-key-${++this.serial}`;
        this.validAccess.add(key);
        return json(200, { api_key: key });
      }
      case "/v1/oauth":
        return json(200, { authorizationEndpoint: `${this.url}/radius/authorize` });
      case "/v1/config": {
        // The Radius gateway's model list for the signed-in account (one entry is not a model).
        const bearer = (req.headers.authorization ?? "").replace(/^Bearer /, "");
        if (!this.validAccess.has(bearer)) return json(401, { error: { message: "unauthorized" } });
        const cost = { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 0 };
        return json(200, {
          baseUrl: `${this.url}/v1`,
          models: [
            {
              id: "balanced",
              name: "Balanced",
              reasoning: true,
              input: ["text"],
              cost,
              contextWindow: 200000,
              maxTokens: 32000,
            },
            { id: "broken", name: "No limits" },
          ],
        });
      }
      case "/v1/oauth/device":
        return json(200, {
          device_code: "dev-radius",
          user_code: "RAD-1357",
          verification_uri: `${this.url}/radius/device`,
          interval: 1,
          expires_in: 120,
        });
      case "/responses":
      case "/v1/responses":
        return this.model(url.pathname, req, res, body);
      case "/v1/oauth/token":
        // The Radius gateway's token endpoint shares Anthropic's path; its client id tells them apart.
        if (body.client_id === "pi-gateway") {
          if (body.grant_type === "urn:ietf:params:oauth:grant-type:device_code") {
            if (body.device_code !== "dev-radius") return json(400, { error: "invalid_grant" });
            if (this.pendingPolls-- > 0) return json(400, { error: "authorization_pending" });
            body.grant_type = "device_granted";
          }
          return this.token("radius", body, json);
        }
        return this.token("anthropic", body, json);
      case "/oauth/token":
        return this.token("codex", body, json);
      case "/login/device/code":
        return json(200, {
          device_code: "dev-1",
          user_code: "ABCD-1234",
          verification_uri: `${this.url}/login/device`,
          interval: 1,
          expires_in: 120,
        });
      case "/login/oauth/access_token":
        if (this.pendingPolls-- > 0) return json(200, { error: "authorization_pending" });
        return json(200, { access_token: this.issueRefresh("gho_github_token"), token_type: "bearer" });
      case "/copilot_internal/v2/token": {
        const github = (req.headers.authorization ?? "").replace(/^Bearer /, "");
        if (!this.refreshTokens.has(github) || this.revoked.has(github))
          return json(401, { message: "Bad credentials" });
        // Exchanging the GitHub token for a Copilot token is Copilot's refresh.
        this.refreshCount++;
        if (this.refreshDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.refreshDelayMs));
        const token = `tid=t${++this.serial};exp=1;proxy-ep=proxy.example.test;`;
        this.validAccess.add(token);
        return json(200, { token, expires_at: Math.floor(Date.now() / 1000) + this.expiresIn });
      }
      case "/auth": {
        // OpenRouter's authorize page: back to callback_url with a code (no state), bound to the challenge.
        const code = `or-code-${++this.serial}`;
        this.challenges.set(code, url.searchParams.get("code_challenge") ?? "");
        const target = new URL(url.searchParams.get("callback_url")!);
        target.searchParams.set("code", code);
        res.writeHead(302, { location: target.toString() });
        res.end();
        return;
      }
      case "/api/v1/auth/keys": {
        const challenge = this.challenges.get(String(body.code));
        const expected = createHash("sha256").update(String(body.code_verifier)).digest("base64url");
        if (challenge === undefined || challenge !== expected) return json(403, { error: { message: "bad code" } });
        this.challenges.delete(String(body.code));
        const key = `sk-or-v1-${++this.serial}`;
        this.validAccess.add(key);
        return json(200, { key, user_id: "u1" });
      }
      case "/oauth2/device/code":
      case "/api/oauth/device_authorization":
        return json(200, {
          device_code: "dev-2",
          user_code: "WXYZ-9876",
          verification_uri: `${this.url}/device`,
          verification_uri_complete: `${this.url}/device?user_code=WXYZ-9876`,
          interval: 1,
          expires_in: 120,
        });
      case "/oauth2/token":
      case "/api/oauth/token":
        if (body.grant_type === "urn:ietf:params:oauth:grant-type:device_code") {
          if (body.device_code !== "dev-2") return json(400, { error: "invalid_grant" });
          if (this.pendingPolls-- > 0) return json(400, { error: "authorization_pending" });
          body.grant_type = "device_granted";
        }
        return this.token(url.pathname === "/oauth2/token" ? "xai" : "kimi", body, json);
      case "/v1/messages":
      case "/chat/completions":
        return this.model(url.pathname, req, res, body);
      default:
        return json(404, { error: "not found" });
    }
  }

  private async token(
    kind: "anthropic" | "codex" | "xai" | "kimi" | "chatgpt" | "radius",
    body: Record<string, unknown>,
    json: (s: number, v: unknown) => void,
  ) {
    if (body.grant_type === "authorization_code") {
      const challenge = this.challenges.get(String(body.code));
      const expected = createHash("sha256").update(String(body.code_verifier)).digest("base64url");
      if (challenge === undefined || challenge !== expected) return json(400, { error: "invalid_grant" });
      this.challenges.delete(String(body.code));
    } else if (body.grant_type === "refresh_token") {
      const refresh = String(body.refresh_token);
      if (!this.refreshTokens.has(refresh) || this.revoked.has(refresh)) {
        return json(400, { error: "invalid_grant", error_description: "Refresh token revoked" });
      }
      this.refreshCount++;
      if (this.refreshDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.refreshDelayMs));
      this.refreshTokens.delete(refresh);
    } else if (body.grant_type !== "device_granted") return json(400, { error: "unsupported_grant_type" });
    const n = ++this.serial;
    const access =
      kind === "codex"
        ? codexAccessToken("acct-42", n)
        : kind === "anthropic"
          ? `sk-ant-oat01-access-${n}`
          : `${kind}-access-${n}`;
    this.validAccess.add(access);
    return json(200, {
      access_token: access,
      refresh_token: this.issueRefresh(`refresh-${n}`),
      expires_in: this.expiresIn,
      ...(kind === "chatgpt"
        ? {
            id_token: "id.token.sig",
            scope: "openid profile email offline_access resource.invoke chatgpt.tokens.use.direct",
          }
        : {}),
      ...(kind === "radius" ? { scope: "gateway offline_access" } : {}),
    });
  }

  private model(path: string, req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>): void {
    const bearer = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (!this.validAccess.has(bearer)) {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid bearer" } }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    if (path === "/v1/messages" && "context" in body) {
      // pi's own protocol (the Radius gateway): pi's events, then the terminal one.
      const usage = {
        input: 3,
        output: 4,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 7,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      };
      const events = [
        { type: "start" },
        { type: "text_start", contentIndex: 0 },
        { type: "text_delta", contentIndex: 0, delta: "hello from radius" },
        { type: "text_end", contentIndex: 0, content: "hello from radius" },
        { type: "done", reason: "stop", usage },
      ];
      res.end(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""));
      return;
    }
    if (path.endsWith("/responses")) {
      const recorded = {
        id: "resp_1",
        model: "m",
        createdAt: 1,
        usage: {
          input_tokens: 3,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 4,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 7,
        },
      };
      const events = responseStream(recorded, [
        { item: messageItem("msg_1", "hello from responses"), deltas: [["hello ", "from responses"]] },
      ]);
      res.end(events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join(""));
      return;
    }
    if (path === "/chat/completions") {
      const chunk = (delta: unknown, finish: string | null) =>
        `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.end(
        `${chunk({ role: "assistant", content: "hello from chat completions" }, null)}${chunk({}, "stop")}data: [DONE]\n\n`,
      );
      return;
    }
    const events: [string, unknown][] = [
      [
        "message_start",
        {
          type: "message_start",
          message: {
            id: "m1",
            type: "message",
            role: "assistant",
            model: "claude",
            content: [],
            stop_reason: null,
            usage: { input_tokens: 3, output_tokens: 0 },
          },
        },
      ],
      ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
      [
        "content_block_delta",
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hello from claude" } },
      ],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 4 } }],
      ["message_stop", { type: "message_stop" }],
    ];
    res.end(events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join(""));
  }
}
