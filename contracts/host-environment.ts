/**
 * What the host that started the kernel knows about where it runs: the working folder, the agent folder,
 * and whether the project in that folder is trusted. Project files (`.pi/settings.json`, `.pi/skills`,
 * `.pi/extensions`, ...) can run code or steer the model, so a plugin reading them asks this contract
 * first. The host provides it itself (the CLI and the SDK boot a small inline plugin of their own), so no
 * host ever names a plugin to hand the decision over.
 */
import { resolve, sep } from "node:path";
import { defineContract, type Handle } from "../kernel/index.js";

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

/** The host's facts. */
export interface HostEnvironment {
  /** The working folder (absolute) the decision is about. */
  cwd: string;
  /** The agent folder (absolute): settings.json, trust.json, sessions/. */
  agentDir: string;
  projectTrust: ProjectTrust;
}

/** The provider: one method, so the answer always comes from the host's current generation. */
export interface HostEnvironmentProvider {
  environment(): HostEnvironment;
}

/** Provided by the host, never by a distribution plugin. */
export const HostEnvironmentContract = defineContract<HostEnvironmentProvider>({
  id: "host/environment",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { environment: "function" },
  methods: { environment: "sync" },
});

/**
 * Whether project files for `cwd` may apply: only when the host says its project is trusted and `cwd`
 * is the host's folder or inside it. Without a host environment (a plugin booted alone, in tests or an
 * embedding that did not say) the answer is no, so an unknown project never runs code.
 */
export async function projectFilesApply(host: Handle<HostEnvironmentProvider> | undefined, cwd: string): Promise<boolean> {
  if (host === undefined || !host.available) return false;
  const environment = await host.api.environment();
  if (!environment.projectTrust.trusted) return false;
  const here = resolve(cwd);
  const root = resolve(environment.cwd);
  return here === root || here.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}
