/**
 * The telemetry backend without OpenTelemetry (a scripted tracing in place of otel.ts): the first root
 * span decides and loads once; off gives the no-op span and loads nothing; every failure — exports that
 * fail, a shutdown that never ends, a load that throws — is told in one line, once; and the wait at
 * shutdown is bounded.
 */
import { describe, expect, it } from "vitest";
import { NOOP_TELEMETRY_SPAN } from "../../../contracts/telemetry.js";
import {
  type BackendDeps,
  TelemetryBackend,
  type TracingHandle,
} from "../../../plugins/integrations/telemetry/backend.js";
import type { TelemetrySwitch } from "../../../plugins/integrations/telemetry/switch.js";
import { SpanLog } from "../../support/recording-span.js";

/** A backend over a scripted tracing; returns it with what it did. */
function backendWith(decision: TelemetrySwitch | Error, tracing: Partial<TracingHandle> & { fail?: boolean } = {}) {
  const seen = { decided: 0, loaded: 0, warnings: [] as string[] };
  const log = new SpanLog();
  let failExport: ((error: Error | undefined) => void) | undefined;
  const deps: BackendDeps = {
    async decide() {
      seen.decided++;
      if (decision instanceof Error) throw decision;
      return decision;
    },
    async load(onExportFailure) {
      seen.loaded++;
      failExport = onExportFailure;
      if (tracing.fail) throw new Error("Cannot find module '@opentelemetry/api'");
      return { root: tracing.root ?? ((name, a) => log.root(name, a)), shutdown: tracing.shutdown ?? (async () => {}) };
    },
    warn: (line) => seen.warnings.push(line),
    flushTimeoutMs: 20,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" },
  };
  return { backend: new TelemetryBackend(deps), seen, log, failExport: (e?: Error) => failExport?.(e) };
}

describe("TelemetryBackend", () => {
  it("off: every root is the no-op span, decided once, nothing loaded, shutdown a no-op", async () => {
    const { backend, seen } = backendWith({ on: false });
    expect(await backend.startRoot("pi.agent.run")).toBe(NOOP_TELEMETRY_SPAN);
    expect(await backend.startRoot("pi.agent.run")).toBe(NOOP_TELEMETRY_SPAN);
    await backend.shutdown();
    expect(seen).toEqual({ decided: 1, loaded: 0, warnings: [] });
  });

  it("off with a warning tells it once", async () => {
    const { backend, seen } = backendWith({ on: false, warning: "pi: telemetry: nope" });
    await backend.startRoot("a");
    await backend.startRoot("b");
    expect(seen.warnings).toEqual(["pi: telemetry: nope"]);
  });

  it("on: loads once, roots come from the tracing with their attributes", async () => {
    const { backend, seen, log } = backendWith({ on: true });
    const [a, b] = await Promise.all([backend.startRoot("pi.agent.run", { "pi.cwd": "/x" }), backend.startRoot("r2")]);
    expect(a.recording && b.recording).toBe(true);
    expect(log.spans.map((s) => [s.name, s.attributes])).toEqual([
      ["pi.agent.run", { "pi.cwd": "/x" }],
      ["r2", {}],
    ]);
    expect(seen.loaded).toBe(1);
  });

  it("failed exports give one line naming the endpoint and the cause", async () => {
    const { backend, seen, failExport } = backendWith({ on: true });
    await backend.startRoot("run");
    failExport(new Error("connect ECONNREFUSED\n127.0.0.1:9"));
    failExport(new Error("again"));
    await backend.shutdown();
    expect(seen.warnings).toEqual([
      "pi: telemetry: could not send spans to http://127.0.0.1:9/v1/traces (connect ECONNREFUSED 127.0.0.1:9)",
    ]);
  });

  it("a shutdown that never ends is cut off after flushTimeoutMs, with one line", async () => {
    const { backend, seen } = backendWith({ on: true }, { shutdown: () => new Promise(() => {}) });
    await backend.startRoot("run");
    await backend.shutdown();
    expect(seen.warnings).toEqual([
      "pi: telemetry: the collector at http://127.0.0.1:9/v1/traces did not take the spans within 20 ms; they were dropped",
    ]);
  });

  it("a decision that fails (settings unreadable) is off, and shutdown still resolves", async () => {
    const { backend, seen } = backendWith(new Error("bad settings.json"));
    expect(await backend.startRoot("run")).toBe(NOOP_TELEMETRY_SPAN);
    await backend.shutdown();
    expect(seen).toMatchObject({ loaded: 0, warnings: [] });
  });

  it("an SDK that fails to load leaves telemetry off with one line", async () => {
    const { backend, seen } = backendWith({ on: true }, { fail: true });
    expect(await backend.startRoot("run")).toBe(NOOP_TELEMETRY_SPAN);
    expect(await backend.startRoot("run")).toBe(NOOP_TELEMETRY_SPAN);
    expect(seen.warnings).toEqual([
      "pi: telemetry: could not start OpenTelemetry: Cannot find module '@opentelemetry/api'",
    ]);
  });
});
