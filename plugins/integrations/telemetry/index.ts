/**
 * The telemetry plugin: provides `telemetry`, OpenTelemetry spans of every run sent over OTLP/HTTP.
 * Off unless asked for (switch.ts: an `OTEL_EXPORTER_OTLP_*ENDPOINT`, `OTEL_TRACES_EXPORTER=otlp` or the
 * setting `telemetry.enabled`); off, it loads no OpenTelemetry module and every span is the no-op one.
 * The session opens a run's root span here; the loop, the LLM router and the tool runner open theirs
 * under it, handed down explicitly (contracts/telemetry.ts). See docs/telemetry.md.
 */
import {
  definePlugin,
  HostEnvironmentContract,
  readHostEnvironment,
  SESSION_EVENT,
  SettingsContract,
  TelemetryContract,
} from "pi-host";
import { Type } from "@sinclair/typebox";
import { TelemetryBackend } from "./backend.js";
import { telemetrySwitch } from "./switch.js";

const Config = Type.Object(
  {
    flushTimeoutMs: Type.Number({
      default: 1500,
      minimum: 0,
      // The kernel cuts a plugin's shutdown off at 2 s (disposeTimeoutMs), so the wait stays under it.
      maximum: 1900,
      description: "The longest wait for the last spans to reach the collector when pi exits (ms, at most 1900)",
    }),
  },
  { additionalProperties: false },
);

export default definePlugin({
  id: "telemetry",
  version: "1.0.0",
  description: "OpenTelemetry spans of each run (run, turn, model request, tool call) over OTLP/HTTP; off by default",
  provides: [TelemetryContract],
  requires: [
    { contract: SettingsContract, optional: true },
    { contract: HostEnvironmentContract, optional: true },
  ],
  config: Config,
  setup(ctx) {
    const settings = ctx.use(SettingsContract);
    const host = ctx.use(HostEnvironmentContract);
    const { flushTimeoutMs } = ctx.config as { flushTimeoutMs: number };
    const backend = new TelemetryBackend({
      async decide() {
        const cwd = readHostEnvironment(host)?.cwd ?? process.cwd();
        // A settings file that cannot be read is the session's to report; the variables still decide.
        const values = settings.available ? await settings.api.get(cwd).catch(() => ({})) : {};
        return telemetrySwitch(process.env, (values as { telemetry?: unknown }).telemetry);
      },
      async load(onExportFailure) {
        const { startTracing } = await import("./otel.js");
        return startTracing({ timeoutMs: flushTimeoutMs, onExportFailure });
      },
      // While the session runs, a notice (the TUI shows it, print mode writes it to stderr); at exit, stderr.
      warn(line) {
        if (ctx.signal.aborted) process.stderr.write(`${line}\n`);
        else ctx.emit(SESSION_EVENT, { type: "notice", level: "warning", message: line });
      },
      flushTimeoutMs,
      env: process.env,
    });
    ctx.provide(TelemetryContract, backend);
    ctx.onDispose(() => backend.shutdown(), "flush spans");
  },
});
