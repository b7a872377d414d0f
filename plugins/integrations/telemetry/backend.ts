/**
 * The `telemetry` contract's implementation. The first root span decides whether telemetry is on
 * (switch.ts) and, only then, loads OpenTelemetry (otel.ts, imported here lazily, so a run with telemetry
 * off loads no module of it). At retire it exports what is left, waiting at most `flushTimeoutMs`, so a
 * dead collector never holds the exit. Whatever goes wrong — a collector that is down, one that does not
 * answer in time, the SDK failing to load — is told once, in one line.
 */
import { NOOP_TELEMETRY_SPAN, type Telemetry, type TelemetryAttributes, type TelemetrySpan } from "pi-host";
import { type TelemetrySwitch, tracesEndpoint } from "./switch.js";

/** The SDK side as the backend uses it (otel.ts's `Tracing`). */
export interface TracingHandle {
  root(name: string, attributes?: TelemetryAttributes): TelemetrySpan;
  shutdown(): Promise<void>;
}

/** What the backend works through. */
export interface BackendDeps {
  /** On or off, asked once, at the first root span. */
  decide(): Promise<TelemetrySwitch>;
  /** Loads and starts the SDK; `onExportFailure` hears every failed export. */
  load(onExportFailure: (error: Error | undefined) => void): Promise<TracingHandle>;
  /** Shows one line to the user. */
  warn(line: string): void;
  /** The longest wait for the last export at shutdown. */
  flushTimeoutMs: number;
  env: NodeJS.ProcessEnv;
}

/** One backend per plugin generation. */
export class TelemetryBackend implements Telemetry {
  private tracing: Promise<TracingHandle | undefined> | undefined;
  private warned = false;

  constructor(private readonly deps: BackendDeps) {}

  async startRoot(name: string, attributes?: TelemetryAttributes): Promise<TelemetrySpan> {
    this.tracing ??= this.start();
    const tracing = await this.tracing;
    return tracing === undefined ? NOOP_TELEMETRY_SPAN : tracing.root(name, attributes);
  }

  /** Exports the spans left, waiting at most `flushTimeoutMs`; nothing to do when telemetry never started. */
  async shutdown(): Promise<void> {
    const tracing = await this.tracing?.catch(() => undefined);
    if (tracing === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), this.deps.flushTimeoutMs);
    });
    try {
      const outcome = await Promise.race([tracing.shutdown().catch(() => undefined), late]);
      if (outcome === "late")
        this.warnOnce(
          `pi: telemetry: the collector at ${tracesEndpoint(this.deps.env)} did not take the spans within ${this.deps.flushTimeoutMs} ms; they were dropped`,
        );
    } finally {
      clearTimeout(timer);
    }
  }

  private async start(): Promise<TracingHandle | undefined> {
    const decision = await this.deps.decide().catch((): TelemetrySwitch => ({ on: false }));
    if (!decision.on) {
      if (decision.warning !== undefined) this.warnOnce(decision.warning);
      return undefined;
    }
    try {
      return await this.deps.load((error) =>
        this.warnOnce(
          `pi: telemetry: could not send spans to ${tracesEndpoint(this.deps.env)}${error?.message ? ` (${oneLine(error.message)})` : ""}`,
        ),
      );
    } catch (error) {
      this.warnOnce(
        `pi: telemetry: could not start OpenTelemetry: ${oneLine(String((error as Error)?.message ?? error))}`,
      );
      return undefined;
    }
  }

  private warnOnce(line: string): void {
    if (this.warned) return;
    this.warned = true;
    this.deps.warn(line);
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, " ").trim();
}
