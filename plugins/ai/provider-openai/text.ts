/**
 * Small text helpers both OpenAI wire formats need when they turn our messages into request bodies.
 */
import type { ImageContent } from "pi-host";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Replaces unpaired UTF-16 surrogates with U+FFFD. A lone surrogate (a cut emoji in a tool's output)
 * makes the body invalid UTF-8 and OpenAI rejects the whole request with a 400.
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

/** An image as the `data:` URL both APIs accept in place of a hosted image URL. */
export function imageDataUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}
