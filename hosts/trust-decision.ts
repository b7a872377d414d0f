/**
 * The project-trust decision for one run, in pi 1.6.0's order: `--approve` / `--no-approve` for this
 * run, else the saved decision of the folder or its nearest decided ancestor (trust.json), else the
 * global `defaultProjectTrust` setting ("ask" by default). "ask" asks the user when the host can (the
 * interactive mode, before the session starts) and otherwise means untrusted. A folder holding no
 * protected resource needs no decision.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { ProjectTrust } from "../contracts/host-environment.js";
import { protectedResources, saveTrustDecision, savedDecision } from "./trust.js";

/** The user's answer to the startup question. */
export type TrustAnswer = "trust" | "once" | "no";

/** Asks the user about `cwd`, listing what it holds. */
export type AskProjectTrust = (cwd: string, resources: string[]) => Promise<TrustAnswer>;

/** The global setting's values. */
export type DefaultProjectTrust = "ask" | "always" | "never";

/** What the decision depends on. */
export interface TrustDecisionInputs {
  agentDir: string;
  cwd: string;
  /** true: `--approve`; false: `--no-approve`; undefined: neither. */
  override?: boolean;
  /** Present only where the user can answer (the interactive mode). */
  ask?: AskProjectTrust;
  /** Whose `~/.agents/skills` is the user's own rather than a project's. */
  homeDir?: string;
}

/** The decision, the protected resources found, and the one line to show when they are skipped. */
export interface TrustOutcome {
  trust: ProjectTrust;
  resources: string[];
  notice?: string;
}

/** Decides, asking or saving as the rules say. */
export async function decideProjectTrust(inputs: TrustDecisionInputs): Promise<TrustOutcome> {
  const resources = protectedResources(inputs.cwd, inputs.homeDir ?? homedir());
  const trust = await decide(inputs, resources);
  const notice = !trust.trusted && resources.length > 0 ? skippedNotice(inputs.cwd, resources) : undefined;
  return { trust, resources, ...(notice !== undefined && { notice }) };
}

async function decide(inputs: TrustDecisionInputs, resources: string[]): Promise<ProjectTrust> {
  if (inputs.override !== undefined) return { trusted: inputs.override, source: "flag" };
  const saved = await savedDecision(inputs.agentDir, inputs.cwd);
  if (saved !== undefined) return { trusted: saved.trusted, source: "saved" };
  if (resources.length === 0) return { trusted: false, source: "none-needed" };
  const fallback = await defaultProjectTrust(inputs.agentDir);
  if (fallback === "always") return { trusted: true, source: "default" };
  if (fallback === "never" || inputs.ask === undefined) return { trusted: false, source: "default" };
  const answer = await inputs.ask(inputs.cwd, resources);
  if (answer === "trust") await saveTrustDecision(inputs.agentDir, inputs.cwd, true);
  if (answer === "no") await saveTrustDecision(inputs.agentDir, inputs.cwd, false);
  return { trusted: answer !== "no", source: "prompt" };
}

/** The one line that says what was skipped and how to trust the folder. */
export function skippedNotice(cwd: string, resources: string[]): string {
  return `skipped project resources in ${cwd} (${resources.join(", ")}): the project is not trusted; run "pi trust" or /trust to trust it, or pass --approve for this run`;
}

/**
 * `defaultProjectTrust` from the GLOBAL settings only (a project cannot vouch for itself). A missing,
 * broken or unknown value is pi's default, "ask".
 */
export async function defaultProjectTrust(agentDir: string): Promise<DefaultProjectTrust> {
  try {
    const settings = JSON.parse(await readFile(join(agentDir, "settings.json"), "utf8")) as {
      defaultProjectTrust?: unknown;
    };
    const value = settings?.defaultProjectTrust;
    return value === "always" || value === "never" ? value : "ask";
  } catch {
    return "ask";
  }
}
