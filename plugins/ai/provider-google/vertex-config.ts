/**
 * How a Vertex AI client is set up, as pi 1.6 does it: a Google Cloud API key (the caller's key, from
 * GOOGLE_CLOUD_API_KEY or auth.json) when there is one, else Application Default Credentials with
 * GOOGLE_CLOUD_PROJECT (or GCLOUD_PROJECT) and GOOGLE_CLOUD_LOCATION, and GOOGLE_APPLICATION_CREDENTIALS
 * as the credentials file when set. The regional endpoint is the SDK's own; any other baseUrl (a proxy,
 * a local server) is used as the collection root, without the project path. Pure: reads only `env`.
 */
import { isAmbientCredentials, type Model } from "pi-host";
import { GoogleRequestError } from "./errors.js";

/** The wire protocol of Gemini models on Vertex AI. */
export const VERTEX_API = "google-vertex";

/** What the Vertex client needs. */
export type VertexSetup =
  | { kind: "api-key"; apiKey: string; baseUrl?: string }
  | { kind: "adc"; project: string; location: string; keyFilename?: string; baseUrl?: string };

/** Resolves the client setup for `model`; throws one line naming the variable to set. */
export function vertexSetup(model: Model, apiKey: string | undefined, env: NodeJS.ProcessEnv): VertexSetup {
  const value = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === "" ? undefined : v;
  };
  const location = value("GOOGLE_CLOUD_LOCATION");
  const baseUrl = customBaseUrl(model.baseUrl, location);
  const key = apiKey?.trim();
  if (key && !isAmbientCredentials(key) && !/^<[^>]+>$/.test(key))
    return { kind: "api-key", apiKey: key, ...(baseUrl && { baseUrl }) };
  const project = value("GOOGLE_CLOUD_PROJECT") ?? value("GCLOUD_PROJECT");
  if (!project)
    throw new GoogleRequestError(
      "Vertex AI needs a project: set GOOGLE_CLOUD_PROJECT (and GOOGLE_CLOUD_LOCATION), or GOOGLE_CLOUD_API_KEY",
      {},
    );
  if (!location)
    throw new GoogleRequestError("Vertex AI needs a location: set GOOGLE_CLOUD_LOCATION, e.g. us-central1", {});
  const keyFilename = value("GOOGLE_APPLICATION_CREDENTIALS");
  return { kind: "adc", project, location, ...(keyFilename && { keyFilename }), ...(baseUrl && { baseUrl }) };
}

/** The model's baseUrl unless it is the regional endpoint (or a template of it), which the SDK builds itself. */
function customBaseUrl(baseUrl: string, location: string | undefined): string | undefined {
  const trimmed = baseUrl.trim().replace(/\/+$/, "");
  if (trimmed === "" || /\{[A-Za-z_]+\}/.test(trimmed)) return undefined;
  if (location !== undefined && trimmed === `https://${location}-aiplatform.googleapis.com`) return undefined;
  if (/^https:\/\/([a-z0-9-]+-)?aiplatform\.googleapis\.com$/.test(trimmed)) return undefined;
  return trimmed;
}

/** Whether a base URL already names an API version (".../v1", ".../v1beta1"). */
export function includesApiVersion(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).pathname.split("/").some((part) => /^v\d+(?:beta\d*)?$/.test(part));
  } catch {
    return false;
  }
}
