/**
 * `pi update --models`: downloads models.dev's api.json and saves it as `<agentDir>/models-dev.json`,
 * which the model catalog then reads instead of the catalog shipped with pi (merged with the same
 * overlay). The download is checked before anything is written, and written through a temp file and a
 * rename, so a failed, cut or malformed download leaves the old file as it was and prints one line.
 * `PI_MODELS_DEV_URL` points it elsewhere (a mirror, or a local server in tests).
 */
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseModelsDev, REFRESHED_CATALOG_FILE } from "../kit/ai/models-dev.js";

/** Where models.dev publishes its data. */
export const MODELS_DEV_URL = "https://models.dev/api.json";

/** How long the download may take. */
const TIMEOUT_MS = 30_000;

/** Refreshes the catalog; resolves with the exit code after printing one line. */
export async function updateModels(agentDir: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const url = env.PI_MODELS_DEV_URL || MODELS_DEV_URL;
  const target = join(agentDir, REFRESHED_CATALOG_FILE);
  let text: string;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
    text = await response.text();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    process.stderr.write(`pi update --models: cannot download ${url} (${why}); the model catalog is unchanged\n`);
    return 1;
  }
  let providers: number;
  let models: number;
  try {
    const data = parseModelsDev(text, url);
    providers = Object.keys(data).length;
    models = Object.values(data).reduce((sum, p) => sum + Object.keys(p.models).length, 0);
  } catch (error) {
    process.stderr.write(`pi update --models: ${(error as Error).message}; the model catalog is unchanged\n`);
    return 1;
  }
  const temp = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await mkdir(agentDir, { recursive: true });
    await writeFile(temp, text, "utf8");
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    process.stderr.write(`pi update --models: cannot write ${target} (${(error as Error).message})\n`);
    return 1;
  }
  process.stdout.write(
    `Updated the model catalog from ${url}: ${providers} providers, ${models} models in ${target}\n`,
  );
  return 0;
}
