/**
 * The extension choices in effect: the plugin's config with what the host says on top — the run's `-e`
 * paths and `--no-extensions`, the extensions installed packages bring, and the agent folder. The host
 * hands these to whichever plugin runs pi extensions through `host/environment`, never by plugin id.
 */
import type { HostEnvironment } from "pi-host";
import type { PiExtensionsConfig } from "./runtime.js";

/** `configured` with the host's extension flags, package extensions and agent folder applied. */
export function effectiveExtensionsConfig(
  configured: PiExtensionsConfig,
  host: HostEnvironment | undefined,
): PiExtensionsConfig {
  const flags = host?.flags ?? {};
  return {
    ...configured,
    packageExtensions: [...configured.packageExtensions, ...(host?.packages?.extensions ?? [])],
    commandLineExtensions: [...configured.commandLineExtensions, ...(flags.extensions ?? [])],
    noExtensions: flags.noExtensions ?? configured.noExtensions,
    // Command-line flags beat the configured values of the same name.
    flags: { ...configured.flags, ...flags.extensionFlags },
    agentDir: configured.agentDir ?? host?.agentDir,
  };
}

/** A flag's given value as its registered type reads it (`--plan=false` is false for a boolean flag). */
export function coerceFlag(value: string | boolean, type: "boolean" | "string" | undefined): string | boolean {
  if (type === "boolean" && typeof value === "string") return !["false", "0", "no", "off", ""].includes(value);
  return value;
}
