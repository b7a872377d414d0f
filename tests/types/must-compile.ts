/**
 * MUST compile (it is part of the main typecheck): typed calls across contracts as plugins write them,
 * and a contract whose method list names every method.
 */
import {
  defineContract,
  defineEvent,
  SESSION_EVENT,
  type AgentMessage,
  type Handle,
  type PluginContext,
  type SessionEvent,
  type SessionStore,
} from "pi-host";

interface Counter {
  inc(by: number): number;
  reset(): void;
  label?: string;
}

/** Every method listed, each sync or async; plain fields are not listed. */
export const CounterContract = defineContract<Counter>({
  id: "types/counter",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  methods: { inc: "sync", reset: "sync" },
});

/** A typed call returns the method's own result type. */
export function appendAndCount(store: Handle<SessionStore>, counter: Handle<Counter>, message: AgentMessage): number {
  const id: string = store.api.appendMessage(message);
  return id.length + counter.api.inc(1);
}

/** A typed event: handlers get the payload type without casts, and emit checks it. */
export const CountedEvent = defineEvent<{ count: number }>("types:counted");

/** Subscribes to the session stream and a typed event; both handlers are typed by their tokens. */
export function listen(ctx: PluginContext, seen: SessionEvent[]): void {
  ctx.on(SESSION_EVENT, (event) => seen.push(event));
  ctx.on(CountedEvent, (payload) => seen.push({ type: "notice", level: "info", message: String(payload.count + 1) }));
  ctx.emit(CountedEvent, { count: seen.length });
}
