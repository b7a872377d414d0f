/** The AiProvider for the Gemini API: a plain object, so each plugin generation gets its own. */
import type { AiProvider } from "pi-host";
import { GOOGLE_API, streamGoogle } from "./google-stream.js";

/** Creates the provider registered under key "google-generative-ai". */
export function createGoogleProvider(): AiProvider {
  return { api: GOOGLE_API, stream: streamGoogle };
}
