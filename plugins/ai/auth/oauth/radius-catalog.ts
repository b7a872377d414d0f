/**
 * After a Radius sign-in, the gateway's own model list (`<gateway>/v1/config`, read with the new token)
 * is kept in `<agentDir>/models-store.json` under `radius`, in the shape pi 1.6 stores it there
 * (`{ models, checkedAt }`, each model with `api: "pi-messages"`, its provider and the gateway's base
 * URL), so the models plugin lists the account's models and either tool reads the other's list.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { MODELS_STORE_FILE, withFileLock } from "pi-host";
import { writeAtomically } from "../auth-file.js";
import { readJson } from "./http.js";

function isGatewayModel(value: unknown): value is Record<string, unknown> {
  const m = value as Record<string, unknown> | null;
  return (
    m !== null &&
    typeof m === "object" &&
    !Array.isArray(m) &&
    typeof m.id === "string" &&
    typeof m.name === "string" &&
    typeof m.reasoning === "boolean" &&
    Array.isArray(m.input) &&
    m.cost !== null &&
    typeof m.cost === "object" &&
    typeof m.contextWindow === "number" &&
    typeof m.maxTokens === "number"
  );
}

/** Reads the gateway's model list and stores it; returns how many models it holds. */
export async function saveRadiusCatalog(
  gateway: string,
  access: string,
  agentDir: string,
  signal?: AbortSignal,
): Promise<number> {
  const url = new URL("/v1/config", gateway).toString();
  const response = await fetch(url, {
    headers: { accept: "application/json", authorization: `Bearer ${access}` },
    signal: AbortSignal.any([AbortSignal.timeout(30_000), ...(signal ? [signal] : [])]),
  });
  const config = await readJson(url, response, false);
  if (typeof config.baseUrl !== "string" || !Array.isArray(config.models)) {
    throw new Error(`Invalid Radius config from ${gateway}: it needs "baseUrl" and "models"`);
  }
  const baseUrl = config.baseUrl;
  const models = config.models
    .filter(isGatewayModel)
    .map((model) => ({ ...model, api: "pi-messages", provider: "radius", baseUrl }));
  const file = join(agentDir, MODELS_STORE_FILE);
  await withFileLock(file, async () => {
    let current: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      current = parsed as Record<string, unknown>;
    } catch (error) {
      // A missing store starts empty; a broken one is left for the user to look at, not overwritten.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        throw new Error(`${file} is not a JSON object; move it away to keep the Radius model list`);
      }
    }
    await writeAtomically(
      file,
      `${JSON.stringify({ ...current, radius: { models, checkedAt: Date.now() } }, null, 2)}\n`,
    );
  });
  return models.length;
}
