/**
 * Mistral accepts only tool-call ids of exactly nine letters and digits. Ids from other providers are
 * rewritten (deterministically, and never two to one within a request); a valid id is kept.
 */
import { shortHash, type ToolCallIdRule } from "pi-host";

const LENGTH = 9;

/** A nine-character id derived from `seed`. */
export function derivedId(seed: string): string {
  const hashed = `${shortHash(seed)}${shortHash(`${seed}\u0000`)}`.replace(/[^a-zA-Z0-9]/g, "");
  return hashed.padEnd(LENGTH, "0").slice(0, LENGTH);
}

/** A rule for one request: remembers which id it gave each source id, so two never collide. */
export function mistralToolCallIds(): ToolCallIdRule {
  const given = new Map<string, string>();
  const owners = new Map<string, string>();
  return (id) => {
    const known = given.get(id);
    if (known !== undefined) return known;
    const cleaned = id.replace(/[^a-zA-Z0-9]/g, "");
    for (let attempt = 0; ; attempt++) {
      const candidate =
        attempt === 0 && cleaned.length === LENGTH ? cleaned : derivedId(attempt === 0 ? id : `${id}:${attempt}`);
      const owner = owners.get(candidate);
      if (owner === undefined || owner === id) {
        given.set(id, candidate);
        owners.set(candidate, id);
        return candidate;
      }
    }
  };
}
