/**
 * Whether telemetry is on, from the standard OpenTelemetry variables and the `telemetry.enabled` setting.
 * pi 1.6.0 has no switch for spans (its `PI_TELEMETRY` and `enableInstallTelemetry` are about install
 * reporting, another thing), so this follows OpenTelemetry's own: off unless asked for.
 *
 *   1. `OTEL_SDK_DISABLED=true` turns it off, whatever else is set;
 *   2. `OTEL_TRACES_EXPORTER=none` turns it off; a value without `otlp` (`console`, `zipkin`) too, with a
 *      warning, since only OTLP is spoken;
 *   3. the setting `telemetry.enabled` (true or false) decides next;
 *   4. else it is on when an endpoint is set (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or
 *      `OTEL_EXPORTER_OTLP_ENDPOINT`) or `OTEL_TRACES_EXPORTER` names `otlp`.
 *
 * On, an endpoint variable that is not an http(s) URL turns it off again with a warning, where the
 * exporter would send to its default instead.
 */

/** The decision, with the one line to show when a setting was not understood. */
export type TelemetrySwitch = { on: true } | { on: false; warning?: string };

/** Decides from the environment and the `telemetry` settings value (any shape; only `enabled` is read). */
export function telemetrySwitch(env: NodeJS.ProcessEnv, setting: unknown): TelemetrySwitch {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return { on: false };
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
  if (exporters.includes("none")) return { on: false };
  if (exporters.length > 0 && !exporters.includes("otlp"))
    return {
      on: false,
      warning: `pi: telemetry: OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER} is not supported; use "otlp" (or "none"). No spans are sent`,
    };
  const enabled = (setting as { enabled?: unknown } | undefined)?.enabled;
  if (enabled !== undefined && typeof enabled !== "boolean")
    return { on: false, warning: `pi: telemetry: the setting telemetry.enabled must be true or false` };
  const endpoint = Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
  const on = enabled ?? (endpoint || exporters.includes("otlp"));
  if (!on) return { on: false };
  const bad = badEndpoint(env);
  return bad === undefined ? { on: true } : { on: false, warning: bad };
}

/** The one line about an endpoint variable that is not an http(s) URL (the exporter would quietly ignore it). */
function badEndpoint(env: NodeJS.ProcessEnv): string | undefined {
  for (const name of ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"]) {
    const value = env[name]?.trim();
    if (!value) continue;
    let protocol: string | undefined;
    try {
      protocol = new URL(value).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol !== "http:" && protocol !== "https:")
      return `pi: telemetry: ${name}=${value} is not an http(s) URL (e.g. http://localhost:4318); no spans are sent`;
  }
  return undefined;
}

/** Where the exporter sends, as the OTLP exporter works it out: for naming it in a warning. */
export function tracesEndpoint(env: NodeJS.ProcessEnv): string {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base) return `${base.replace(/\/+$/, "")}/v1/traces`;
  return "http://localhost:4318/v1/traces";
}
