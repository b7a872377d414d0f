/**
 * Before a run starts, the host reads every user config file the run depends on — settings.json (global
 * and project), models.json, auth.json — through the contracts of the plugins that own them. A broken
 * file is bad input: it is reported as the one line its plugin wrote (file, field, what to do) and the
 * run exits 2 in every mode, instead of surfacing later, in a different way per mode, or hiding behind
 * a follow-on error such as "no model selected". The host knows no plugin; it only calls contracts.
 */
import { AuthContract, ModelsContract } from "../contracts/ai/index.js";
import { SettingsContract } from "../contracts/resources.js";
import type { Kernel } from "../kernel/index.js";

/** One broken config file: the file (when the error names it) and the line to show. */
export interface ConfigProblem {
  file: string | undefined;
  message: string;
}

/** The auth plugin's extra member that reads auth.json without running any `!command`. */
interface KeySourceReader {
  keySource(provider: string): Promise<unknown>;
}

/** A provider name no flag targets, so asking its key source always reads auth.json. */
const PROBE_PROVIDER = "\u0000config-check";

/** Reads settings, the model catalog and auth.json once; returns the problems found, first per file. */
export async function checkConfigFiles(kernel: Kernel, cwd: string): Promise<ConfigProblem[]> {
  const problems: ConfigProblem[] = [];
  const record = (error: unknown): void => {
    const problem = toProblem(error);
    // auth.json's reader also reads models.json's keys: one broken file is reported once.
    const known = problems.some(
      (p) => p.message === problem.message || (p.file !== undefined && problem.message.startsWith(`${p.file}: `)),
    );
    if (!known) problems.push(problem);
  };
  const settings = kernel.use(SettingsContract);
  if (settings.available) await settings.api.get(cwd).catch(record);
  const catalog = kernel.use(ModelsContract);
  if (catalog.available) {
    try {
      catalog.api.list();
    } catch (error) {
      record(error);
    }
  }
  const auth = kernel.use(AuthContract);
  const store = auth.available ? (auth.peek() as Partial<KeySourceReader> | undefined) : undefined;
  if (typeof store?.keySource === "function") await store.keySource(PROBE_PROVIDER).catch(record);
  return problems;
}

function toProblem(error: unknown): ConfigProblem {
  const file = (error as { file?: unknown } | null)?.file;
  const message = error instanceof Error ? error.message : String(error);
  return { file: typeof file === "string" ? file : undefined, message: message.replace(/\s*\r?\n\s*/g, " ") };
}
