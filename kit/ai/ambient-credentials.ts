/**
 * The key the auth store hands out for a provider that needs no key because the platform supplies
 * credentials (AWS credentials for Bedrock, Google Application Default Credentials for Vertex). The
 * router only asks "is there a key?", so such a provider gets this placeholder instead of a refusal; the
 * provider then leaves authentication to its SDK. The angle brackets keep it from looking like a key.
 */

/** The placeholder key meaning "authenticate with the platform's credentials". */
export const AMBIENT_CREDENTIALS = "<ambient-credentials>";

/** Whether `key` is the placeholder rather than a real key. */
export function isAmbientCredentials(key: string | undefined): boolean {
  return key === AMBIENT_CREDENTIALS;
}
