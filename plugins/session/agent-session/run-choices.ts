/**
 * The session's effective choices: the host's per-run flags (`--model`, `--session`, ...), read from the
 * host environment, over the plugin's own config (plugins.json). Reading them by meaning rather than
 * having the host write them into this plugin's config is what lets any plugin that provides
 * `agent/session`, under any id, honour the same flags.
 */
import type { HostEnvironment } from "pi-host";
import type { SessionConfig } from "./types.js";

/** `configured` with every session choice the host's flags make put over it; `cwd` defaults to the host's folder. */
export function effectiveSessionConfig(configured: SessionConfig, host: HostEnvironment | undefined): SessionConfig {
  const flags = host?.flags ?? {};
  const chosen: SessionConfig = {
    cwd: configured.cwd ?? host?.cwd,
    session: flags.session,
    sessionId: flags.sessionId,
    sessionDir: flags.sessionDir,
    model: flags.model,
    provider: flags.provider,
    thinking: flags.thinking,
    models: flags.models,
    tools: toolSelection(configured.tools, flags.tools),
    excludeTools: flags.excludeTools,
    noBuiltinTools: flags.noBuiltinTools,
    systemPrompt: flags.systemPrompt,
    appendSystemPrompt: flags.appendSystemPrompt,
  };
  const defined = Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined));
  return { ...configured, ...defined };
}

/**
 * pi's rule for `--tools` over the configured default selection: a list of only `+name`/`-name` entries
 * changes the default (kept after it, so the deltas apply last); any plain entry replaces it.
 */
function toolSelection(configured: string[] | undefined, flag: string[] | undefined): string[] | undefined {
  if (flag === undefined) return undefined;
  const deltasOnly = flag.length > 0 && flag.every((e) => e.startsWith("+") || e.startsWith("-"));
  return deltasOnly && configured !== undefined ? [...configured, ...flag] : flag;
}
