/**
 * The token-endpoint calls the flows share, with the one distinction the store needs: a refresh the
 * server refused for good (revoked or expired refresh token) versus a failure worth retrying later.
 */

/** The refresh token was refused (HTTP 400/401/403): only a new sign-in helps. */
export class RevokedTokenError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = "RevokedTokenError";
  }
}

/** POSTs `body` (JSON, or form-encoded when `form`) and returns the parsed JSON answer; throws one line on failure. */
export async function postForJson(
  url: string,
  body: Record<string, string>,
  options: { form?: boolean; signal?: AbortSignal; headers?: Record<string, string>; refresh?: boolean } = {},
): Promise<Record<string, unknown>> {
  const signals = [AbortSignal.timeout(30_000), ...(options.signal ? [options.signal] : [])];
  const response = await fetch(url, {
    method: "POST",
    headers: {
      accept: "application/json",
      "content-type": options.form ? "application/x-www-form-urlencoded" : "application/json",
      ...options.headers,
    },
    body: options.form ? new URLSearchParams(body).toString() : JSON.stringify(body),
    signal: AbortSignal.any(signals),
  });
  return readJson(url, response, options.refresh === true);
}

/** Reads a JSON answer; an HTTP error becomes one line (a RevokedTokenError for a refused refresh). */
export async function readJson(url: string, response: Response, refresh: boolean): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (!response.ok) {
    const detail = `${url} answered HTTP ${response.status}: ${text.slice(0, 300).replace(/\s+/g, " ")}`;
    if (refresh && (response.status === 400 || response.status === 401 || response.status === 403)) {
      throw new RevokedTokenError(detail);
    }
    throw new Error(detail);
  }
  try {
    const data: unknown = JSON.parse(text);
    if (data === null || typeof data !== "object" || Array.isArray(data)) throw new Error("not an object");
    return data as Record<string, unknown>;
  } catch {
    throw new Error(`${url} answered with invalid JSON: ${text.slice(0, 200)}`);
  }
}

/** A string field of a token answer, or a one-line error naming it. */
export function stringField(data: Record<string, unknown>, field: string, what: string): string {
  const value = data[field];
  if (typeof value !== "string" || value === "") throw new Error(`${what}: the answer has no "${field}"`);
  return value;
}

/** A number field of a token answer, or a one-line error naming it. */
export function numberField(data: Record<string, unknown>, field: string, what: string): number {
  const value = data[field];
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`${what}: the answer has no "${field}"`);
  return value;
}

/** Sleeps `ms`, rejecting with "Login cancelled" when `signal` fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("Login cancelled"));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error("Login cancelled"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
