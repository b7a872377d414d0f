/**
 * The startup header above the transcript, as pi 1.6.0's `quietStartup` setting and `--verbose` flag
 * shape it: `quietStartup: true` hides it, `"header"` keeps the title and key hints but hides the
 * details (the model scope line), `false` (the default) shows both; `--verbose` always shows both.
 * The plugin learns the setting, the flag and the scope after start-up (index.ts) and sets them here;
 * until then no header shows (pi too holds its header back until it knows its colours).
 */
import type { AgentSession, Handle, ModelCatalog } from "pi-host";
import { truncate } from "./text.js";
import type { Theme } from "./theme.js";

/** What the header shows: the quietStartup setting, the --verbose flag, the scope's models (`id[:thinking]`). */
export interface StartupOptions {
  quietStartup: boolean | "header";
  verbose: boolean;
  scope: string[];
}

/** Unset until the plugin read the settings: no header shows before it is known whether one may. */
let options: StartupOptions | undefined;

/** Sets what the header shows (the plugin calls it once the settings and flags are known). */
export function setStartupOptions(next: StartupOptions): void {
  options = next;
}

/** The settings' `quietStartup` as pi reads it: true, "header", or false for anything else. */
export function quietStartupOf(value: unknown): boolean | "header" {
  return value === true || value === "header" ? value : false;
}

/** The header rows for a frame `width` wide. */
export function startupHeaderRows(width: number, theme: Theme): string[] {
  if (options === undefined) return [];
  const showHeader = options.verbose || options.quietStartup !== true;
  const showDetails = options.verbose || options.quietStartup === false;
  const rows: string[] = [];
  if (showHeader) {
    const title = theme.bold(theme.fg("accent", " pi-host"));
    const help = theme.fg("dim", " · esc interrupt · ctrl+c twice exit · / commands · ctrl+p next model");
    rows.push(truncate(title + help, width));
  }
  if (showDetails && options.scope.length > 0) {
    const line = ` Model scope: ${options.scope.join(", ")}${theme.fg("muted", " (ctrl+p to cycle)")}`;
    rows.push(truncate(theme.fg("dim", line), width));
  }
  return rows;
}

/** The scope's models as pi's header names them (`id[:thinking]`); none without patterns or a catalog. */
export async function scopeLabels(
  patterns: unknown,
  models: Handle<ModelCatalog>,
  session: Handle<AgentSession>,
): Promise<string[]> {
  if (!Array.isArray(patterns) || patterns.length === 0 || !models.available) return [];
  try {
    const scope = models.api.scope(patterns.map(String), await session.api.availableModels());
    return scope.models.map((s) => `${s.model.id}${s.thinking !== undefined ? `:${s.thinking}` : ""}`);
  } catch {
    return [];
  }
}
