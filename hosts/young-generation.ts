/**
 * Why `pi` keeps V8's young generation at its starting size. V8 doubles the young generation (the
 * semi-spaces new objects are made in) each time many objects survive a scavenge, up to 16 MB a
 * semi-space, and keeps the grown space committed. Opening a long session is exactly that case: every
 * parsed entry survives, so a 20,000-message session grew it to the maximum and left ~20 MB more resident
 * for the rest of the run (bench/RESULTS.md, 2026-12-04), for no gain in time: scavenges of a small young
 * generation copy the same survivors, only in smaller steps. The cap itself (`--max-semi-space-size`) is
 * read once at heap set-up, but the growth factor is read at each growth, so it can be set from here.
 */
import { setFlagsFromString } from "node:v8";

/** Stops the young generation from growing; call as early as possible (it only affects later growth). */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString("--semi-space-growth-factor=1");
}
