/**
 * The kernel's event bus. Handlers belong to a generation and hear events only while that generation is
 * active, so from the instant of commit the old code hears nothing, though it may still be finishing work.
 */
import type { Generation } from "./generation.js";

interface Listener {
  gen: Generation | undefined;
  handler: (payload: unknown) => void;
}

/** A synchronous bus; a throwing handler is reported and the others still run. */
export class EventBus {
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly onHandlerError: (gen: Generation | undefined, error: unknown) => void) {}

  /** Adds a handler; returns the function that removes it. */
  add(event: string, handler: (payload: unknown) => void, gen?: Generation): () => void {
    let set = this.listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(event, set);
    }
    const listener: Listener = { gen, handler };
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(event) === set) this.listeners.delete(event);
    };
  }

  /** Delivers `payload` to every handler of `event` whose generation is active. */
  emit(event: string, payload: unknown): void {
    const set = this.listeners.get(event);
    if (set === undefined) return;
    for (const listener of [...set]) {
      if (listener.gen !== undefined && listener.gen.status !== "active") continue;
      try {
        listener.handler(payload);
      } catch (error) {
        this.onHandlerError(listener.gen, error);
      }
    }
  }

  /** Handler counts per event, for the kernel's description. */
  counts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [event, set] of [...this.listeners].sort(([a], [b]) => a.localeCompare(b))) out[event] = set.size;
    return out;
  }
}
