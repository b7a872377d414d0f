/**
 * What one run's command line chooses, checked and typed before anything boots: contradicting flags
 * are refused, the session to open is worked out, and the per-run flags plugins read from the host
 * environment are made (paths absolute).
 */
import { resolve } from "node:path";
import type { HostFlags } from "../contracts/host-environment.js";
import { parseRemoteTarget } from "../kit/remote/remote-target.js";
import { type CliArgs, UsageError } from "./cli-flags.js";
import type { RunPlace } from "./cli-run.js";
import { expandHome } from "./paths.js";

/** Flags that contradict each other are refused before anything starts. */
export function checkCombinations(args: CliArgs): void {
  const sessionFlags = [
    args.continue && "--continue",
    args.resume && "--resume",
    args.session !== undefined && "--session",
    args.noSession && "--no-session",
  ].filter((f): f is string => typeof f === "string");
  if (sessionFlags.length > 1) throw new UsageError(`${sessionFlags.join(" and ")} cannot be combined; choose one`);
  checkRemoteTarget(args.remote);
  const beside =
    sessionFlags[0] ?? (args.fork !== undefined ? "--fork (choosing the fork's id is not supported yet)" : "");
  if (args.sessionId !== undefined && beside !== "")
    throw new UsageError(`--session-id and ${beside} cannot be combined; --session-id already picks the session`);
  if (args.fork !== undefined && sessionFlags.length > 0)
    throw new UsageError(`--fork and ${sessionFlags[0]} cannot be combined; --fork already picks the session`);
  if (args.fork === "") throw new UsageError(`--fork is empty; give a session file or id`);
  if (args.name !== undefined && args.name.trim() === "")
    throw new UsageError(`--name is empty; give the session a name`);
  if (args.tools !== undefined && args.noTools)
    throw new UsageError(`--tools and --no-tools cannot be combined; choose one`);
  if (args.session === "") throw new UsageError(`--session is empty; give a session file or id`);
  for (const [flag, value] of [
    ["--model", args.model],
    ["--provider", args.provider],
    ["--session-dir", args.sessionDir],
  ] as const) {
    if (value === "") throw new UsageError(`${flag} is empty; give a value or leave the flag out`);
  }
}

/** The agent-session `session` choice, and a partial id to look up once the session store runs. */
export interface SessionChoice {
  session: string | undefined;
  sessionDir: string | undefined;
  partialId: string | undefined;
}

export function sessionChoice(args: CliArgs, cwd: string): SessionChoice {
  const dir = args.sessionDir ?? (process.env.PI_CODING_AGENT_SESSION_DIR || undefined);
  const sessionDir = dir === undefined ? undefined : resolve(cwd, expandHome(dir));
  if (args.noSession) return { session: "none", sessionDir, partialId: undefined };
  if (args.continue) return { session: "continue", sessionDir, partialId: undefined };
  const value = args.fork ?? args.session;
  if (value === undefined) return { session: undefined, sessionDir, partialId: undefined };
  // pi's rule: a value with a slash or ending in .jsonl is a file; anything else is the start of a session id.
  if (value.includes("/") || value.includes("\\") || value.endsWith(".jsonl"))
    return { session: resolve(cwd, expandHome(value)), sessionDir, partialId: undefined };
  return { session: undefined, sessionDir, partialId: value };
}

/** The per-run choices plugins read from the host environment (paths made absolute). */
export function runFlags(args: CliArgs, place: RunPlace, session: SessionChoice): HostFlags {
  const flags: HostFlags = {
    session: session.session,
    sessionId: args.sessionId,
    sessionDir: session.sessionDir,
    model: args.model,
    provider: args.provider,
    thinking: args.thinking,
    models: args.models,
    apiKey: args.apiKey,
    tools: args.noTools ? [] : args.tools,
    excludeTools: args.excludeTools,
    noBuiltinTools: args.noBuiltinTools || undefined,
    systemPrompt: args.systemPrompt,
    appendSystemPrompt: args.appendSystemPrompt.length > 0 ? args.appendSystemPrompt : undefined,
    skillPaths: args.skills.length > 0 ? args.skills : undefined,
    noSkills: args.noSkills || undefined,
    templatePaths: args.promptTemplates.length > 0 ? args.promptTemplates : undefined,
    noTemplates: args.noPromptTemplates || undefined,
    noContextFiles: args.noContextFiles || undefined,
    extensions:
      args.extensions.length > 0 ? args.extensions.map((path) => resolve(place.cwd, expandHome(path))) : undefined,
    noExtensions: args.noExtensions || undefined,
    noMcp: args.noMcp || undefined,
    themePaths: args.themes.length > 0 ? args.themes.map((path) => resolve(place.cwd, expandHome(path))) : undefined,
    useTheme: args.useTheme,
    noThemes: args.noThemes || undefined,
    verbose: args.verbose || undefined,
    offline: args.offline || isTruthyFlag(process.env.PI_OFFLINE) || undefined,
    tuiMode: args.tuiMode,
    remote: args.remote,
  };
  return Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined)) as HostFlags;
}

/** PI_OFFLINE's spellings for "on", as pi reads them: 1, true, yes. */
export function isTruthyFlag(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "yes"].includes(value.trim().toLowerCase());
}

/**
 * `--remote`'s spelling, checked here rather than in the flag parser: the target reader lives in the kit,
 * which `pi --version` and `pi --help` must not load.
 */
function checkRemoteTarget(value: string | undefined): void {
  if (value === undefined) return;
  try {
    parseRemoteTarget(value);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
