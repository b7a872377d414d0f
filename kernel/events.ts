/**
 * The kernel's event bus. Handlers belong to a generation and hear events only while that generation is
 * active, so from the instant of commit the old code hears nothing, though it may still be finishing work.
 */
import type { Generation } from "./generation.js";

/** A typed event: its name, and for the type checker only, the payload every emit carries. */
export interface EventToken<T> {
  readonly name: string;
  /** Phantom field carrying `T`; never set at run time. */
  readonly __payload?: T;
}

/** Declares a typed event, so `on(token, handler)` hands the handler a T and `emit(token, p)` checks p. */
export function defineEvent<T>(name: string): EventToken<T> {
  return Object.freeze({ name });
}

/** An event as the bus takes it: a typed token or a plain name. */
export type EventKey = string | EventToken<any>;

function eventName(event: EventKey): string {
  return typeof event === "string" ? event : event.name;
}

type Listener = { gen: Generation | undefined; handler: (payload: unknown) => void };

/** A synchronous bus; a throwing handler is reported and the others still run. */
export class EventBus {
  /** Every event's handlers; read-only outside the bus (the kernel's snapshot). */
  readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly onHandlerError: (gen: Generation | undefined, error: unknown) => void) {}

  /** Adds a handler; returns the function that removes it. */
  add(key: EventKey, handler: (payload: unknown) => void, gen?: Generation): () => void {
    const event = eventName(key);
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
  emit(event: EventKey, payload: unknown): void {
    const set = this.listeners.get(eventName(event));
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
}
