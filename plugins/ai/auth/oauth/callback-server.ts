/**
 * The loopback server a browser sign-in redirects to (`http://localhost:<port><path>?code=...&state=...`).
 * It answers the browser with a short page and hands the code to the flow; a wrong state or a missing
 * code is refused, so another page cannot inject a code.
 */
import type { Server } from "node:http";
import { createRequire } from "node:module";

/**
 * node:http through `require`: on Node 22 an ESM import of it builds the module's export list, which
 * reads its lazy `WebSocket` getter and loads undici (~30 ms, ~13 MB) into every run, sign-in or not.
 */
const requireBuiltin = createRequire(import.meta.url);

/** A listening callback server. */
export interface CallbackServer {
  /** The port it listens on (the requested one, or a free one when 0 was asked). */
  port: number;
  /** Resolves with the authorization code; rejects on an error redirect or when closed first. */
  code: Promise<string>;
  /** The redirect's whole query once `code` resolved (ChatGPT's also names the issued client id). */
  readonly query: URLSearchParams | undefined;
  close(): void;
}

/** Starts the server on `host:port`; rejects when the port cannot be bound. */
export async function startCallbackServer(options: {
  host: string;
  port: number;
  path: string;
  /** The state the redirect must carry; undefined for providers that send none (a random path guards those). */
  state: string | undefined;
  providerName: string;
}): Promise<CallbackServer> {
  let resolveCode!: (code: string) => void;
  let rejectCode!: (error: Error) => void;
  const code = new Promise<string>((resolve, reject) => {
    resolveCode = resolve;
    rejectCode = reject;
  });
  code.catch(() => undefined);
  let done = false;
  let query: URLSearchParams | undefined;
  const { createServer } = requireBuiltin("node:http") as typeof import("node:http");
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const page = (status: number, text: string) => {
      response.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      response.end(`<!doctype html><meta charset="utf-8"><title>pi</title><p>${escapeHtml(text)}</p>`);
    };
    if (url.pathname !== options.path) return page(404, "Not found.");
    if (options.state !== undefined && url.searchParams.get("state") !== options.state)
      return page(400, "State mismatch.");
    if (done) return page(409, "This sign-in has already been handled.");
    const error = url.searchParams.get("error");
    if (error !== null) {
      done = true;
      const description = url.searchParams.get("error_description") ?? error;
      page(400, `${options.providerName} sign-in failed: ${description}`);
      rejectCode(new Error(`${options.providerName} authorization failed: ${description}`));
      return;
    }
    const value = url.searchParams.get("code");
    if (value === null || value === "") return page(400, "Missing authorization code.");
    done = true;
    query = url.searchParams;
    page(200, `Signed in to ${options.providerName}. You may close this page.`);
    resolveCode(value);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  return {
    port,
    code,
    get query() {
      return query;
    },
    close() {
      if (!done) rejectCode(new Error("Login cancelled"));
      done = true;
      server.close();
      server.closeAllConnections();
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

/**
 * Waits for the browser's redirect or for the user to paste the code / redirect URL (a browser on
 * another machine cannot reach the loopback server), whichever comes first.
 */
export async function codeFromCallbackOrPaste(
  callback: CallbackServer | undefined,
  paste: (signal: AbortSignal) => Promise<string>,
  expectedState: string,
): Promise<string> {
  const stopPaste = new AbortController();
  const pasted = paste(stopPaste.signal).then((input) => {
    const parsed = parseAuthorizationInput(input);
    if (parsed.state !== undefined && parsed.state !== expectedState) throw new Error("OAuth state mismatch");
    if (parsed.code === undefined || parsed.code === "") throw new Error("Missing authorization code");
    return parsed.code;
  });
  try {
    return await (callback === undefined ? pasted : Promise.race([callback.code, pasted]));
  } finally {
    stopPaste.abort();
    pasted.catch(() => undefined);
  }
}

/** Reads a pasted redirect URL, `code#state`, a query string or a bare code. */
export function parseAuthorizationInput(input: string): { code?: string; state?: string } {
  const value = input.trim();
  if (value === "") return {};
  if (URL.canParse(value)) {
    const url = new URL(value);
    return { code: url.searchParams.get("code") ?? undefined, state: url.searchParams.get("state") ?? undefined };
  }
  if (value.includes("#")) {
    const [code, state] = value.split("#", 2);
    return { code, state };
  }
  if (value.includes("code=")) {
    const params = new URLSearchParams(value);
    return { code: params.get("code") ?? undefined, state: params.get("state") ?? undefined };
  }
  return { code: value };
}
