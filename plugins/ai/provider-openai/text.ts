/**
 * Small text helpers both OpenAI wire formats need when they turn our messages into request bodies.
 */
import type { ImageContent } from "pi-host";

/** ES2024's well-formed string methods (Node 20+), which the ES2022 lib this build types against lacks. */
interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/**
 * Replaces unpaired UTF-16 surrogates with U+FFFD. A lone surrogate (a cut emoji in a tool's output)
 * makes the body invalid UTF-8 and OpenAI rejects the whole request with a 400. Every text of the history
 * passes here on each request, so the check is the engine's own scan (a 20,000-message history: ~1 ms,
 * against 10–50 ms for a regular expression); only a string that has a lone surrogate is rewritten.
 */
export function wellFormed(text: string): string {
  const checked = text as unknown as WellFormedString;
  return checked.isWellFormed() ? text : checked.toWellFormed();
}

/** An image as the `data:` URL both APIs accept in place of a hosted image URL. */
export function imageDataUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}
