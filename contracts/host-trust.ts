/**
 * Project trust as the host keeps it, for the TUI's `/trust` screen: the decision saved for a folder
 * (its own or an ancestor's), whether the running session trusts its project, and saving new decisions
 * in `<agentDir>/trust.json` (the file pi 1.6.0 shares). The logic stays in the host; a plugin reaches
 * it only through this contract, so no plugin imports host code.
 */
import { defineContract } from "../kernel/index.js";

/** A saved decision and the folder it was saved for (the folder asked about, or an ancestor). */
export interface SavedTrustDecision {
  dir: string;
  trusted: boolean;
}

/** What `/trust` shows about a folder. */
export interface TrustStatus {
  /** The folder as trust.json keys it (absolute, symlinks resolved). */
  dir: string;
  /** Its parent, when it has one (pi offers "Trust parent folder"). */
  parent?: string;
  /** The nearest saved decision, or undefined when nothing is saved. */
  saved?: SavedTrustDecision;
  /** Whether the running session trusts its project (decided at start). */
  currentSession: boolean;
}

/** One decision to write: true trusts, false refuses, null clears. */
export interface TrustUpdate {
  dir: string;
  value: boolean | null;
}

/** Provided by the host, never by a distribution plugin. */
export interface HostTrust {
  status(cwd: string): Promise<TrustStatus>;
  /** Writes the decisions in order, each atomically under trust.json's lock. */
  save(updates: readonly TrustUpdate[]): Promise<void>;
}

/** The host's trust store. */
export const HostTrustContract = defineContract<HostTrust>({
  id: "host/trust",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { status: "function", save: "function" },
  methods: { status: "async", save: "async" },
});
