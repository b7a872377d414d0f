/**
 * Where an Azure OpenAI request goes, as pi 1.6 resolves it: AZURE_OPENAI_BASE_URL, else
 * `https://<AZURE_OPENAI_RESOURCE_NAME>.openai.azure.com/openai/v1`, else the model's baseUrl (a
 * models.json entry); resource root URLs on Azure hosts get the `/openai/v1` path. The deployment is the
 * model id unless AZURE_OPENAI_DEPLOYMENT_NAME_MAP (`model=deployment,...`) maps it; the API version is
 * AZURE_OPENAI_API_VERSION, else "v1". Pure: reads only the environment it is given.
 */
import type { Model } from "pi-host";
import { RequestSetupError } from "./request-checks.js";

/** The wire protocol of Azure's OpenAI models (the Responses API behind the AzureOpenAI client). */
export const AZURE_RESPONSES_API = "azure-openai-responses";

/** The provider id pi 1.6 gives Azure; its Foundry models speak Chat Completions through the same client. */
export const AZURE_PROVIDER = "azure";

const DEFAULT_API_VERSION = "v1";
const AZURE_HOSTS = [".openai.azure.com", ".cognitiveservices.azure.com", ".ai.azure.com"];
const ROOT_PATHS = new Set(["", "/", "/openai", "/openai/v1/responses"]);

/** Whether `model` is reached through the AzureOpenAI client. */
export function isAzureModel(model: Model): boolean {
  return model.api === AZURE_RESPONSES_API || model.provider === AZURE_PROVIDER;
}

/** The resolved endpoint, API version and deployment name. */
export interface AzureTarget {
  baseUrl: string;
  apiVersion: string;
  deployment: string;
}

/** Resolves where a request for `model` goes; throws one line naming the variables when nothing says. */
export function azureTarget(model: Model, env: NodeJS.ProcessEnv): AzureTarget {
  const value = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === "" ? undefined : v;
  };
  const resource = value("AZURE_OPENAI_RESOURCE_NAME");
  // A catalog URL whose {PLACEHOLDER} was not filled names no real endpoint.
  const modelUrl = model.baseUrl.trim() !== "" && !/\{[A-Z_]+\}/.test(model.baseUrl) ? model.baseUrl : undefined;
  const raw =
    value("AZURE_OPENAI_BASE_URL") ??
    (resource ? `https://${resource}.openai.azure.com/openai/v1` : undefined) ??
    modelUrl;
  if (raw === undefined)
    throw new RequestSetupError(
      "Azure OpenAI needs an endpoint: set AZURE_OPENAI_BASE_URL (https://<resource>.openai.azure.com) or AZURE_OPENAI_RESOURCE_NAME",
    );
  return {
    baseUrl: normalizeBaseUrl(raw),
    apiVersion: value("AZURE_OPENAI_API_VERSION") ?? DEFAULT_API_VERSION,
    deployment: deploymentMap(value("AZURE_OPENAI_DEPLOYMENT_NAME_MAP")).get(model.id) ?? model.id,
  };
}

function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim().replace(/\/+$/, ""));
  } catch {
    throw new RequestSetupError(
      `Invalid Azure OpenAI base URL ${JSON.stringify(raw)}: expected https://<resource>.openai.azure.com`,
    );
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (AZURE_HOSTS.some((host) => url.hostname.endsWith(host)) && ROOT_PATHS.has(path)) {
    url.pathname = "/openai/v1";
    url.search = "";
  }
  return url.toString().replace(/\/+$/, "");
}

/** `gpt-5.4=my-gpt,deepseek-v4-pro=my-deepseek` as a map; malformed entries are skipped. */
function deploymentMap(text: string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const entry of (text ?? "").split(",")) {
    const [model, deployment] = entry.split("=", 2).map((s) => s.trim());
    if (model && deployment) map.set(model, deployment);
  }
  return map;
}
