/**
 * MUST NOT compile: each line marked `expect-error: TSxxxx` is a mistake across a contract that the type
 * checker has to catch. tests/types/types.test.ts runs tsc on this file alone and checks that exactly
 * these errors, on exactly these lines, are reported. The main typecheck leaves this folder out.
 */
import {
  defineContract,
  SESSION_EVENT,
  type AgentMessage,
  type Handle,
  type PluginContext,
  type SessionStore,
} from "pi-host";

declare const store: Handle<SessionStore>;
declare const message: AgentMessage;
declare const ctx: PluginContext;

store.api.appendMesage(message); // expect-error: TS2551
store.api.appendMessage("not a message"); // expect-error: TS2345

interface Counter {
  inc(by: number): number;
  reset(): void;
}
export const Misspelt = defineContract<Counter>({
  id: "types/misspelt",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  methods: { inc: "sync", rest: "sync" }, // expect-error: TS2561
});
export const Incomplete = defineContract<Counter>({
  id: "types/incomplete",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  methods: { inc: "sync" }, // expect-error: TS2741
});

ctx.emit(SESSION_EVENT, { type: "no_such_event" }); // expect-error: TS2769
ctx.on(SESSION_EVENT, (event) => event.notAField); // expect-error: TS2339
