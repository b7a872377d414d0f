/**
 * `pi.events`: the bus extensions use to talk to each other (pi's `createEventBus`). One per plugin
 * generation, shared by every extension it loaded; a throwing listener is reported, the others still hear.
 */

/** pi's EventBus. */
export interface ExtensionEventBus {
  /** Listens on `channel`; returns the function that stops listening. */
  on(channel: string, handler: (data: unknown) => void): () => void;
  emit(channel: string, data?: unknown): void;
}

/** A new bus; `onError` hears what a listener threw. */
export function createEventBus(onError: (channel: string, error: unknown) => void = () => {}): ExtensionEventBus {
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  return {
    on(channel, handler) {
      if (typeof handler !== "function") throw new Error(`events.on("${channel}") needs a handler function`);
      let set = listeners.get(channel);
      if (set === undefined) listeners.set(channel, (set = new Set()));
      set.add(handler);
      return () => void set.delete(handler);
    },
    emit(channel, data) {
      for (const handler of [...(listeners.get(channel) ?? [])]) {
        try {
          const result = handler(data) as unknown;
          if (result instanceof Promise) result.catch((error: unknown) => onError(channel, error));
        } catch (error) {
          onError(channel, error);
        }
      }
    },
  };
}
