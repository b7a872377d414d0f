/**
 * Which plugin's built-in tools serve a run: the local ones, or the remote ones when the run chose
 * `--remote` (HostFlags.remote). Both kinds of plugins provide tools of the same names; each marks its
 * tools `enabled` with one of these, so exactly one of each name is offered and no host names a plugin.
 */
import type { Handle } from "../../kernel/index.js";
import { type HostEnvironmentProvider, readHostEnvironment } from "../../contracts/host-environment.js";

/** The run's `--remote` target, or undefined (no host, or no flag). */
export function chosenRemote(host: Handle<HostEnvironmentProvider> | undefined): string | undefined {
  return readHostEnvironment(host)?.flags?.remote;
}

/** `enabled` for a local tool: offered unless the run sent the tools to a remote machine. */
export function localToolEnabled(host: Handle<HostEnvironmentProvider> | undefined): () => boolean {
  return () => chosenRemote(host) === undefined;
}
