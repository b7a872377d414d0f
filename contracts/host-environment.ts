/**
 * What the host that started the kernel knows about where it runs: the working folder, the agent folder,
 * and whether the project in that folder is trusted. Project files (`.pi/settings.json`, `.pi/skills`,
 * `.pi/extensions`, ...) can run code or steer the model, so a plugin reading them asks this contract
 * first. The host provides it itself (the CLI and the SDK boot a small inline plugin of their own), so no
 * host ever names a plugin to hand the decision over.
 */
import { resolve, sep } from "node:path";
import { defineContract, type Handle } from "../kernel/index.js";
import type { ThinkingLevel } from "./ai/types.js";

/** How the trust decision was made, as pi names the steps. */
export type ProjectTrustSource =
  /** `--approve` / `--no-approve` for this run. */
  | "flag"
  /** A decision saved in `<agentDir>/trust.json` for the folder or its nearest decided ancestor. */
  | "saved"
  /** The global `defaultProjectTrust` setting (or its "ask" default where nobody can be asked). */
  | "default"
  /** The user answered the question at startup. */
  | "prompt"
  /** The folder holds no protected resource, so nothing was decided. */
  | "none-needed";

/** The trust decision for the host's working folder. */
export interface ProjectTrust {
  trusted: boolean;
  source: ProjectTrustSource;
}

/**
 * The per-run choices the user made on the command line (or an embedder through SDK options). They
 * beat every plugin's configured default; a plugin reads the ones it owns by meaning, never by who
 * asked, so any plugin that provides the same contract under another id honours them too. Paths are
 * absolute. A field that is absent was not chosen.
 */
export interface HostFlags {
  /** `--model`: "provider/id[:thinking]" or a unique id. */
  model?: string;
  /** `--provider`: the provider `model` (and `apiKey`) belong to. */
  provider?: string;
  /** `--thinking`. */
  thinking?: ThinkingLevel;
  /** `--models`: pi's scope patterns (ids, fuzzy matches, globs, `:thinking`) for the first model and cycling. */
  models?: string[];
  /** `--api-key`: a key that beats auth.json and the environment (for `provider` when given). */
  apiKey?: string;
  /**
   * `--tools` as pi 1.6.0 reads it: names or `*` patterns (only these, MCP tools kept unless an entry
   * starts with `mcp__`), or only `+name`/`-name` entries (changes to the default selection); `--no-tools`
   * is an empty list.
   */
  tools?: string[];
  /** `--exclude-tools`: names or `*` patterns taken out after every other choice, MCP tools included. */
  excludeTools?: string[];
  /** `-nbt/--no-builtin-tools`: the built-in tools are off unless `--tools` names them; other tools stay. */
  noBuiltinTools?: boolean;
  /** `--system-prompt`: text or a file, replacing the default preamble. */
  systemPrompt?: string;
  /** `--append-system-prompt`, in order. */
  appendSystemPrompt?: string[];
  /** The session to open: "new", "continue", "none" or an absolute session file (`--continue`, `--no-session`, `--session FILE`). */
  session?: string;
  /**
   * `--session-id`: the id a new session gets (pi's session ids: letters, digits, `.`, `_`, `-`, a letter
   * or digit first and last). The host opens this folder's session of that id itself when there is one.
   */
  sessionId?: string;
  /** `--session-dir` (or PI_CODING_AGENT_SESSION_DIR): where session files go. */
  sessionDir?: string;
  /** `--skill`: SKILL.md files or folders, loaded even with `noSkills`. */
  skillPaths?: string[];
  /** `--no-skills`. */
  noSkills?: boolean;
  /** `--prompt-template`: template files or folders, loaded even with `noTemplates`. */
  templatePaths?: string[];
  /** `--no-prompt-templates`. */
  noTemplates?: boolean;
  /** `--no-context-files`: leave AGENTS.md / CLAUDE.md out of the prompt. */
  noContextFiles?: boolean;
  /** `-e`: pi extension files or folders to load. */
  extensions?: string[];
  /** `--no-extensions`: skip discovered extensions (listed ones still load). */
  noExtensions?: boolean;
  /** `--no-mcp`: the built-in MCP support starts no server this run (no MCP tools, no `/mcp`). */
  noMcp?: boolean;
  /** `--theme`: theme files or folders of this run, loaded even with `noThemes`. */
  themePaths?: string[];
  /** `--use-theme`: the interactive theme of this run, a name or a `light/dark` pair; settings stay. */
  useTheme?: string;
  /** `--no-themes`: no theme discovery (themes folders, the `themes` setting, packages). */
  noThemes?: boolean;
  /** `--verbose`: the full startup header whatever the `quietStartup` setting says. */
  verbose?: boolean;
  /** `--offline` or PI_OFFLINE: no automatic network activity (catalog refreshes, update checks). */
  offline?: boolean;
  /** `--tui-mode`: the interactive mode's terminal mode, beating the `tuiMode` setting. */
  tuiMode?: "fullscreen" | "regular";
  /**
   * `--remote`: the tools act on another machine — `user@host[:port]:/path` over SSH, or
   * `docker:<container>[:/path]` — while sessions and credentials stay here. A plugin providing the
   * built-in tools locally steps aside when it is set; one providing them remotely takes over.
   */
  remote?: string;
  /**
   * `--name` / `--name=value` flags pi doesn't know, for pi extensions' `registerFlag` (`true` for a bare
   * flag); the plugin running extensions reports the ones no extension registers.
   */
  extensionFlags?: Record<string, string | boolean>;
}

/** What one installed package contributes that is not a plugin of its own (paths absolute). */
export interface PackageResources {
  /** The package source as the user installed it (npm:..., git:..., a path). */
  name: string;
  skills: string[];
  prompts: string[];
}

/** What installed packages contribute to the plugins that load skills, templates and pi extensions. */
export interface HostPackageContributions {
  /** Packages with skills or prompt templates, in install order. */
  resources: PackageResources[];
  /** pi extension files or folders of every package whose code may run, in install order. */
  extensions: string[];
  /** Theme files or folders of every package, in install order (absent from an older host). */
  themes?: string[];
}

/** The host's facts. */
export interface HostEnvironment {
  /** The working folder (absolute) the decision is about. */
  cwd: string;
  /** The agent folder (absolute): settings.json, trust.json, sessions/, auth.json, skills/, ... */
  agentDir: string;
  projectTrust: ProjectTrust;
  /** The user's per-run choices; absent when the host had none (an older host, a test). */
  flags?: HostFlags;
  /** What installed packages bring; absent when the host read no packages. */
  packages?: HostPackageContributions;
  /**
   * The lines the host printed on stderr before the run (the untrusted project's skipped resources, a
   * package that failed to load): a UI drawing over the whole terminal shows them again, or they are lost.
   */
  notices?: readonly string[];
}

/** The provider: one method, so the answer always comes from the host's current generation. */
export interface HostEnvironmentProvider {
  environment(): HostEnvironment;
}

/** Provided by the host, never by a distribution plugin. */
export const HostEnvironmentContract = defineContract<HostEnvironmentProvider>({
  id: "host/environment",
  // 1.4: the theme, verbose, offline and tui-mode flags; 1.5: the startup notices; 1.6: the remote flag.
  version: "1.6.0",
  kind: "single",
  gate: "overlap",
  shape: { environment: "function" },
  methods: { environment: "sync" },
});

/**
 * The host's facts, or undefined without a host (a plugin booted alone, in tests). Handles bind only
 * when the boot commits, so a plugin reads this when it is asked for something, never in setup.
 * Synchronous so synchronous methods can use it: the host's plugin never reloads, so its handle is never
 * held; a held handle (which would answer with a promise) counts as no host.
 */
export function readHostEnvironment(host: Handle<HostEnvironmentProvider> | undefined): HostEnvironment | undefined {
  if (host === undefined || !host.available) return undefined;
  const environment: HostEnvironment | Promise<HostEnvironment> = host.call("environment");
  return environment instanceof Promise ? undefined : environment;
}

/**
 * Whether project files for `cwd` may apply: only when the host says its project is trusted and `cwd`
 * is the host's folder or inside it. Without a host environment (a plugin booted alone, in tests or an
 * embedding that did not say) the answer is no, so an unknown project never runs code.
 */
export async function projectFilesApply(
  host: Handle<HostEnvironmentProvider> | undefined,
  cwd: string,
): Promise<boolean> {
  if (host === undefined || !host.available) return false;
  const environment = await host.api.environment();
  if (!environment.projectTrust.trusted) return false;
  const here = resolve(cwd);
  const root = resolve(environment.cwd);
  return here === root || here.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/**
 * A plugin that takes command-line flags the host cannot know while it parses (pi extensions'
 * `registerFlag`) says which ones, so the host can refuse an unknown flag before the run starts, as pi
 * does. Asking may load what registers them (the extensions); that is what pi does at startup too.
 */
export interface FlagOwner {
  /** The names (without `--`) of the flags this plugin takes. */
  registeredFlags(): Promise<string[]>;
  /**
   * Loads what registers providers and models in the catalog (pi extensions' `registerProvider`), so
   * `--list-models` and `--model` see them, as pi loads its extensions at startup.
   */
  loadRegistrations?(): Promise<void>;
}

/**
 * Provided by plugins that take flags of their own (the pi-extensions plugin); the CLI asks every one.
 * 1.1: `loadRegistrations` (optional: only owners that add catalog entries have it).
 */
export const FlagOwnerContract = defineContract<FlagOwner>({
  id: "host/flag-owner",
  version: "1.1.0",
  kind: "many",
  gate: "overlap",
  shape: { registeredFlags: "function" },
  methods: { registeredFlags: "async", loadRegistrations: "async" },
});
