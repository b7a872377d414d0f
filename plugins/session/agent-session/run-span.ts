/**
 * The root span of one run, `pi.agent.run`: opened through the `telemetry` contract when a run starts
 * (or resumes after a reload moved it: a new root then, marked `pi.run.resumed`) and handed to every turn
 * in `TurnConfig.telemetry`, under which the loop opens the turn, request and tool spans. Without a
 * telemetry plugin it is the no-op span and nothing is built.
 */
import { type Model, NOOP_TELEMETRY_SPAN, type TelemetrySpan } from "pi-host";
import type { RunOutcome } from "./run.js";
import type { SessionDeps } from "./types.js";

/** Opens the run's span: session id, working folder and model (GenAI `invoke_agent` with pi's names beside). */
export async function openRunSpan(
  deps: Pick<SessionDeps, "telemetry" | "store">,
  cwd: string,
  model: Model | undefined,
  resumed: boolean,
): Promise<TelemetrySpan> {
  if (!deps.telemetry.available) return NOOP_TELEMETRY_SPAN;
  const sessionId = deps.store.api.current()?.id;
  return deps.telemetry.api
    .startRoot("pi.agent.run", {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "pi",
      "gen_ai.conversation.id": sessionId,
      "gen_ai.provider.name": model?.provider,
      "gen_ai.request.model": model?.id,
      "pi.session.id": sessionId,
      "pi.cwd": cwd,
      "pi.model": model === undefined ? undefined : `${model.provider}/${model.id}`,
      "pi.run.resumed": resumed || undefined,
    })
    .catch(() => NOOP_TELEMETRY_SPAN);
}

/** Ends the run's span with how the run ended here (over, aborted, or moved on to the next generation). */
export function endRunSpan(span: TelemetrySpan, outcome: RunOutcome | undefined): void {
  if (span.recording && outcome !== undefined)
    span.setAttributes({ "pi.run.aborted": outcome.aborted === true, "pi.run.moved": outcome.moved !== undefined });
  span.end();
}
