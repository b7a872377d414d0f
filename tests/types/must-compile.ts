/**
 * MUST compile (it is part of the main typecheck): typed calls across contracts as plugins write them,
 * and a contract whose method list names every method.
 */
import { defineContract, type AgentMessage, type Handle, type SessionStore } from "pi-host";

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
