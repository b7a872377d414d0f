/**
 * The polling half of an RFC 8628 device-code sign-in, shared by the flows that use one (xAI, Kimi):
 * wait the interval, ask the token endpoint, keep waiting on `authorization_pending`, slow down on
 * `slow_down`, stop on anything else or when the code expires.
 */
import { sleep } from "./http.js";

/** One poll's answer, as the token endpoint gave it. */
export interface DevicePollAnswer {
  ok: boolean;
  status: number;
  body: Record<string, unknown>;
}

/** POSTs a form and returns status and JSON body without throwing on HTTP errors (device polls answer 400 while pending). */
export async function postFormAnswer(
  url: string,
  fields: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<DevicePollAnswer> {
  const signals = [AbortSignal.timeout(30_000), ...(signal ? [signal] : [])];
  const response = await fetch(url, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    signal: AbortSignal.any(signals),
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch {
    if (response.ok) throw new Error(`${url} answered with invalid JSON: ${text.slice(0, 200)}`);
  }
  return { ok: response.ok, status: response.status, body };
}

/** Polls `poll` until it yields tokens; `what` names the provider in errors. */
export async function pollDeviceCode<T>(options: {
  what: string;
  intervalSeconds: number | undefined;
  expiresInSeconds: number;
  signal: AbortSignal;
  poll: () => Promise<DevicePollAnswer>;
  complete: (body: Record<string, unknown>) => T;
}): Promise<T> {
  let intervalMs = Math.max(1000, (options.intervalSeconds ?? 5) * 1000);
  const deadline = Date.now() + options.expiresInSeconds * 1000;
  while (Date.now() < deadline) {
    await sleep(intervalMs, options.signal);
    const answer = await options.poll();
    if (answer.ok && typeof answer.body.access_token === "string") return options.complete(answer.body);
    const error = answer.body.error;
    if (error === "authorization_pending") continue;
    if (error === "slow_down") {
      const next = answer.body.interval;
      intervalMs = typeof next === "number" && next > 0 ? next * 1000 : intervalMs + 5000;
      continue;
    }
    if (error === "access_denied" || error === "authorization_denied") {
      throw new Error(`${options.what} device authorization was denied`);
    }
    if (error === "expired_token") throw new Error(`${options.what} device code expired`);
    const description = typeof answer.body.error_description === "string" ? `: ${answer.body.error_description}` : "";
    throw new Error(
      `${options.what} device sign-in failed (HTTP ${answer.status})${typeof error === "string" ? `: ${error}` : ""}${description}`,
    );
  }
  throw new Error(`${options.what} device code expired`);
}

/** A device-code answer's verification URL, refused unless it is http(s) (it is opened in a browser). */
export function trustedVerificationUri(raw: unknown, what: string): string {
  if (typeof raw !== "string" || !URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) {
    throw new Error(`Untrusted verification URI in ${what} device code answer`);
  }
  return raw;
}
