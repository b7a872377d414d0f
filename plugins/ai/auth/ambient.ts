/**
 * Credentials the platform supplies, as pi 1.6 detects them, for the providers that need no key of
 * their own: Amazon Bedrock with an AWS profile, access keys, a container role or a web identity token;
 * Google Vertex AI with Application Default Credentials (the gcloud file or
 * GOOGLE_APPLICATION_CREDENTIALS) plus a project and a location. Only detection: the provider's SDK
 * reads and refreshes the credentials itself.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** How to supply platform credentials, added to the missing-key line of these providers. */
export const AMBIENT_HINTS: Readonly<Record<string, string>> = {
  "amazon-bedrock": "set AWS_PROFILE (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) with AWS_REGION",
  "google-vertex": "set GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION with gcloud application default credentials",
};

/** Where the credentials come from (what `pi --list-models` shows), or undefined when there are none. */
export function ambientSource(provider: string, env: NodeJS.ProcessEnv): string | undefined {
  const set = (name: string): boolean => env[name] !== undefined && env[name] !== "";
  if (provider === "amazon-bedrock") {
    if (set("AWS_PROFILE")) return "AWS_PROFILE";
    if (set("AWS_ACCESS_KEY_ID") && set("AWS_SECRET_ACCESS_KEY")) return "AWS access keys";
    if (set("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") || set("AWS_CONTAINER_CREDENTIALS_FULL_URI"))
      return "ECS task role";
    if (set("AWS_WEB_IDENTITY_TOKEN_FILE")) return "web identity token";
    return undefined;
  }
  if (provider === "google-vertex") {
    const file = set("GOOGLE_APPLICATION_CREDENTIALS")
      ? env.GOOGLE_APPLICATION_CREDENTIALS!
      : join(env.HOME || homedir(), ".config", "gcloud", "application_default_credentials.json");
    const project = set("GOOGLE_CLOUD_PROJECT") || set("GCLOUD_PROJECT");
    if (existsSync(file) && project && set("GOOGLE_CLOUD_LOCATION")) return "gcloud application default credentials";
  }
  return undefined;
}
