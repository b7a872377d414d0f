/**
 * How the Bedrock client is set up for one request, as pi 1.6 does it: the region from the model's ARN,
 * else AWS_REGION / AWS_DEFAULT_REGION, else the standard endpoint's region, else us-east-1; the model's
 * baseUrl as the endpoint unless it is a standard Bedrock endpoint and a region or profile was chosen;
 * a bearer token (the caller's key or AWS_BEARER_TOKEN_BEDROCK) before AWS credentials; a named profile
 * before access keys. Pure: reads only the environment it is given.
 */
import { isAmbientCredentials, type Model } from "pi-host";

/** What the client needs beyond the SDK's defaults. */
export interface BedrockClientSettings {
  region?: string;
  endpoint?: string;
  profile?: string;
  /** A Bedrock API key, sent as `Authorization: Bearer`. */
  bearerToken?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

const STANDARD_ENDPOINT = /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/;
const ARN_REGION = /^arn:aws(?:-[a-z0-9-]+)?:bedrock:([a-z0-9-]+):/;

/** The client settings for `model` given the caller's key and the environment. */
export function bedrockClientSettings(
  model: Model,
  apiKey: string | undefined,
  env: NodeJS.ProcessEnv,
): BedrockClientSettings {
  const value = (name: string): string | undefined => (env[name] === "" ? undefined : env[name]);
  const configuredRegion = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION");
  const profile = value("AWS_PROFILE");
  const endpointRegion = standardEndpointRegion(model.baseUrl);
  // A standard endpoint in the catalog (us-east-1) must not override a region the user chose.
  const useEndpoint = model.baseUrl !== "" && (endpointRegion === undefined || (!configuredRegion && !profile));
  const settings: BedrockClientSettings = {};
  if (useEndpoint) settings.endpoint = model.baseUrl;
  if (profile) settings.profile = profile;
  const arnRegion = ARN_REGION.exec(model.id)?.[1];
  if (arnRegion) settings.region = arnRegion;
  else if (configuredRegion) settings.region = configuredRegion;
  else if (endpointRegion && useEndpoint) settings.region = endpointRegion;
  else if (!profile) settings.region = "us-east-1";

  const key = apiKey !== undefined && apiKey !== "" && !isAmbientCredentials(apiKey) ? apiKey : undefined;
  const bearerToken = key ?? value("AWS_BEARER_TOKEN_BEDROCK");
  if (bearerToken) settings.bearerToken = bearerToken;
  const accessKeyId = value("AWS_ACCESS_KEY_ID");
  const secretAccessKey = value("AWS_SECRET_ACCESS_KEY");
  if (accessKeyId && secretAccessKey && !profile) {
    const sessionToken = value("AWS_SESSION_TOKEN");
    settings.credentials = { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
  }
  return settings;
}

/** The region of a standard `bedrock-runtime.<region>.amazonaws.com` URL, else undefined. */
function standardEndpointRegion(baseUrl: string): string | undefined {
  try {
    return STANDARD_ENDPOINT.exec(new URL(baseUrl).hostname.toLowerCase())?.[1];
  } catch {
    return undefined;
  }
}
