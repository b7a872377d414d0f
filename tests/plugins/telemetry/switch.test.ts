/**
 * When telemetry is on: OTEL_SDK_DISABLED beats everything, OTEL_TRACES_EXPORTER=none (or a value
 * without otlp, with a warning) turns it off, the `telemetry.enabled` setting decides next, and else an
 * OTLP endpoint (or OTEL_TRACES_EXPORTER=otlp) turns it on; an endpoint that is not an http(s) URL turns
 * it off with a warning. Plus the endpoint a warning names.
 */
import { describe, expect, it } from "vitest";
import { telemetrySwitch, tracesEndpoint } from "../../../plugins/integrations/telemetry/switch.js";

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" };

describe("telemetrySwitch", () => {
  it("is off with nothing set, on with an endpoint or OTEL_TRACES_EXPORTER=otlp", () => {
    expect(telemetrySwitch({}, undefined)).toEqual({ on: false });
    expect(telemetrySwitch(ENDPOINT, undefined)).toEqual({ on: true });
    expect(telemetrySwitch({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" }, undefined)).toEqual({
      on: true,
    });
    expect(telemetrySwitch({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " }, undefined)).toEqual({ on: false });
    expect(telemetrySwitch({ OTEL_TRACES_EXPORTER: "otlp" }, undefined)).toEqual({ on: true });
  });

  it("OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none turn it off over an endpoint and the setting", () => {
    expect(telemetrySwitch({ ...ENDPOINT, OTEL_SDK_DISABLED: "TRUE" }, { enabled: true })).toEqual({ on: false });
    expect(telemetrySwitch({ ...ENDPOINT, OTEL_SDK_DISABLED: "false" }, undefined)).toEqual({ on: true });
    expect(telemetrySwitch({ ...ENDPOINT, OTEL_TRACES_EXPORTER: "otlp, none" }, { enabled: true })).toEqual({
      on: false,
    });
  });

  it("an exporter it does not speak is off with one warning naming the value", () => {
    const decision = telemetrySwitch({ ...ENDPOINT, OTEL_TRACES_EXPORTER: "zipkin" }, undefined);
    expect(decision.on).toBe(false);
    expect(decision).toMatchObject({ warning: expect.stringContaining("OTEL_TRACES_EXPORTER=zipkin") });
    expect(telemetrySwitch({ ...ENDPOINT, OTEL_TRACES_EXPORTER: "console,otlp" }, undefined)).toEqual({ on: true });
  });

  it("the telemetry.enabled setting decides when the variables do not", () => {
    expect(telemetrySwitch({}, { enabled: true })).toEqual({ on: true });
    expect(telemetrySwitch(ENDPOINT, { enabled: false })).toEqual({ on: false });
    expect(telemetrySwitch(ENDPOINT, { enabled: "yes" })).toMatchObject({
      on: false,
      warning: expect.stringContaining("telemetry.enabled must be true or false"),
    });
    expect(telemetrySwitch(ENDPOINT, "not an object")).toEqual({ on: true });
  });

  it("an endpoint that is not an http(s) URL is off with one warning naming the variable", () => {
    expect(telemetrySwitch({ OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" }, undefined)).toEqual({
      on: false,
      warning:
        "pi: telemetry: OTEL_EXPORTER_OTLP_ENDPOINT=not a url is not an http(s) URL (e.g. http://localhost:4318); no spans are sent",
    });
    expect(telemetrySwitch({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "grpc://c:4317" }, { enabled: true })).toMatchObject({
      on: false,
      warning: expect.stringContaining("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=grpc://c:4317"),
    });
    // Off anyway: nothing to warn about.
    expect(telemetrySwitch({ OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" }, { enabled: false })).toEqual({ on: false });
    expect(telemetrySwitch({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otlp.example.com:443" }, undefined)).toEqual({
      on: true,
    });
  });
});

describe("tracesEndpoint", () => {
  it("is the traces endpoint as given, else the base endpoint plus /v1/traces, else the OTLP default", () => {
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://a:1/x", ...ENDPOINT })).toBe("http://a:1/x");
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://b:2/" })).toBe("http://b:2/v1/traces");
    expect(tracesEndpoint({})).toBe("http://localhost:4318/v1/traces");
  });
});
