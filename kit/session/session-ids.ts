/**
 * Session and entry ids in pi's shapes (shared by every session store): a session is a time-ordered UUID (version 7), so ids sort by creation time; an
 * entry is 8 hex characters, unique within its file.
 */
import { nodeCrypto } from "../process/node-builtins.js";

/** A version-7 UUID: 48 bits of Unix milliseconds, then random bits, as pi names its sessions. */
export function newSessionId(nowMs: number = Date.now()): string {
  const bytes = nodeCrypto().randomBytes(16);
  let time = nowMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** pi's rule for a chosen session id: letters, digits, `.`, `_`, `-`, a letter or digit first and last. */
export function isSessionId(id: unknown): id is string {
  return typeof id === "string" && /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/.test(id);
}

/**
 * An 8-hex entry id that `taken` does not hold yet. Like pi, it gives up after 100 collisions and uses
 * a whole random UUID-sized hex string, which cannot realistically collide.
 */
export function newEntryId(taken: { has(id: string): boolean }): string {
  for (let attempt = 0; attempt < 100; attempt++) {
    const id = nodeCrypto().randomBytes(4).toString("hex");
    if (!taken.has(id)) return id;
  }
  return newSessionId();
}
