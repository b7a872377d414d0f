/**
 * Older settings files written by pi use keys pi has since renamed; pi upgrades them when it reads a
 * file, and so do we, so a user's old settings keep meaning what they meant. Reading never rewrites the
 * file (set() only touches the key it writes).
 */
import { isPlainObject } from "./merge.js";

/** Returns `settings` (one file's parsed content) with pi's legacy keys upgraded, in place. */
export function upgradeLegacyKeys(settings: Record<string, unknown>): Record<string, unknown> {
  // queueMode was the old name of steeringMode.
  if ("queueMode" in settings && !("steeringMode" in settings)) {
    settings.steeringMode = settings.queueMode;
    delete settings.queueMode;
  }
  // `websockets: true|false` became `transport`.
  if (!("transport" in settings) && typeof settings.websockets === "boolean") {
    settings.transport = settings.websockets ? "websocket" : "sse";
    delete settings.websockets;
  }
  // `skills` used to be an object { enableSkillCommands, customDirectories }; now it is a path list.
  if (isPlainObject(settings.skills)) {
    const old = settings.skills;
    if (old.enableSkillCommands !== undefined && settings.enableSkillCommands === undefined) {
      settings.enableSkillCommands = old.enableSkillCommands;
    }
    if (Array.isArray(old.customDirectories) && old.customDirectories.length > 0)
      settings.skills = old.customDirectories;
    else delete settings.skills;
  }
  // `retry.maxDelayMs` became `retry.provider.maxRetryDelayMs` in pi. The contract still names
  // `retry.maxDelayMs` (our agent-level backoff cap), so it is kept and also copied to pi's new place.
  if (isPlainObject(settings.retry) && typeof settings.retry.maxDelayMs === "number") {
    const provider = isPlainObject(settings.retry.provider) ? settings.retry.provider : {};
    if (provider.maxRetryDelayMs === undefined || provider.maxRetryDelayMs === null) {
      settings.retry.provider = { ...provider, maxRetryDelayMs: settings.retry.maxDelayMs };
    }
  }
  return settings;
}
