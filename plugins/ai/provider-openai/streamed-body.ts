/**
 * How a long request reaches the wire without the SDK turning it into one string. The OpenAI SDK sends a
 * request object as `JSON.stringify(body)`; for a long session that is megabytes held while the request
 * is out (bench/RESULTS.md, 2026-12-06). So the SDK is given a small stand-in with the fields it reads
 * itself (`stream`, which picks the answer parser, and `model`, which the Azure client puts in the path),
 * and the fetch it calls swaps the stand-in's text for a `JsonBody` of the real request, which
 * `nodeFetch` serializes piece by piece as the socket takes it. What goes out is byte for byte what
 * `JSON.stringify` of the request gives.
 */
import { JsonBody } from "pi-host";

/** The stand-in the SDK sees, and the swap the SDK's fetch applies. */
export interface StreamedBody {
  /** What to hand the SDK as the request object. */
  standIn: unknown;
  /** The SDK's fetch arguments with the stand-in's text replaced by the real body. */
  swap(init: RequestInit | undefined): RequestInit | undefined;
}

/** A body the SDK can carry without serializing it: plain objects only; anything else goes as it is. */
export function streamedBody(body: unknown): StreamedBody {
  if (
    body === null ||
    typeof body !== "object" ||
    Array.isArray(body) ||
    Object.getPrototypeOf(body) !== Object.prototype
  )
    return { standIn: body, swap: (init) => init };
  const fields = body as { model?: unknown; stream?: unknown };
  const standIn = { model: fields.model, stream: fields.stream };
  const standInText = JSON.stringify(standIn);
  const whole = new JsonBody(body);
  return {
    standIn: standIn,
    swap: (init) => (init?.body === standInText ? { ...init, body: whole as unknown as BodyInit } : init),
  };
}
