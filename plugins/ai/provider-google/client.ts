/**
 * The one place the Gemini SDK is loaded, on the first request (it costs ~70 ms to import, so runs that
 * never use Gemini never load it). Builds the client for the Gemini API (an API key, the model's baseUrl
 * with its version) or for Vertex AI (an API key or Application Default Credentials, API version v1).
 * The SDK never retries on its own: the provider's retry loop does.
 */
import type { GoogleGenAI, HttpOptions } from "@google/genai";
import type { Model, StreamOptions } from "pi-host";
import type { VertexSetup } from "./vertex-config.js";
import { includesApiVersion } from "./vertex-config.js";

/** Google's endpoint, for a Gemini model entry that names none. */
const DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

/** How to authenticate: a Gemini API key, or a Vertex setup. */
export type ClientAuth = { kind: "gemini"; apiKey: string } | { kind: "vertex"; setup: VertexSetup };

/** A client for one request; `fetch` is the wire tap's. */
export async function createGenAIClient(
  model: Model,
  options: StreamOptions,
  auth: ClientAuth,
  fetch: typeof globalThis.fetch,
): Promise<GoogleGenAI> {
  const headers = { ...model.headers, ...options.headers };
  const { GoogleGenAI, ResourceScope } = await import("@google/genai");
  if (auth.kind === "gemini") {
    // The model's baseUrl already names the API version (".../v1beta").
    return new GoogleGenAI({
      apiKey: auth.apiKey,
      httpOptions: { baseUrl: model.baseUrl || DEFAULT_BASE_URL, apiVersion: "", headers, fetch },
    });
  }
  const setup = auth.setup;
  const httpOptions: HttpOptions = { headers, fetch };
  if (setup.baseUrl !== undefined) {
    httpOptions.baseUrl = setup.baseUrl;
    // A proxy or local server is the collection root: no projects/<p>/locations/<l> prefix.
    httpOptions.baseUrlResourceScope = ResourceScope.COLLECTION;
    if (includesApiVersion(setup.baseUrl)) httpOptions.apiVersion = "";
  }
  if (setup.kind === "api-key")
    return new GoogleGenAI({ vertexai: true, apiKey: setup.apiKey, apiVersion: "v1", httpOptions });
  return new GoogleGenAI({
    vertexai: true,
    project: setup.project,
    location: setup.location,
    apiVersion: "v1",
    ...(setup.keyFilename !== undefined && { googleAuthOptions: { keyFilename: setup.keyFilename } }),
    httpOptions,
  });
}
