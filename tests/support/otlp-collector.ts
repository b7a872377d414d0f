/**
 * A local OTLP/HTTP trace collector on 127.0.0.1 for tests: it takes `POST /v1/traces` bodies in the
 * OTLP JSON encoding (what @opentelemetry/exporter-trace-otlp-http sends), answers 200 as a collector
 * does, and decodes every span into a flat record — ids, parent, name, attributes as plain values,
 * events, status and the resource's attributes — so a test can rebuild the tree.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** An attribute value decoded from OTLP's AnyValue. */
export type OtlpValue = string | number | boolean | OtlpValue[] | undefined;

/** One span as the collector received it. */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  attributes: Record<string, OtlpValue>;
  events: Array<{ name: string; attributes: Record<string, OtlpValue> }>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  startNs: bigint;
  endNs: bigint;
  resource: Record<string, OtlpValue>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
}

interface KeyValue {
  key: string;
  value: AnyValue;
}

/** OTLP's AnyValue as a plain value (64-bit ints arrive as strings or numbers). */
function decodeValue(value: AnyValue): OtlpValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(decodeValue);
  return undefined;
}

function decodeAttributes(list: KeyValue[] | undefined): Record<string, OtlpValue> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, decodeValue(kv.value)]));
}

/** Decodes one `ExportTraceServiceRequest` in the JSON encoding. */
export function decodeTraces(body: any): CollectedSpan[] {
  const out: CollectedSpan[] = [];
  for (const resourceSpans of body.resourceSpans ?? []) {
    const resource = decodeAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        out.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? "",
          name: span.name,
          attributes: decodeAttributes(span.attributes),
          events: (span.events ?? []).map((e: { name: string; attributes?: KeyValue[] }) => ({
            name: e.name,
            attributes: decodeAttributes(e.attributes),
          })),
          status: { code: span.status?.code ?? 0, message: span.status?.message },
          startNs: BigInt(span.startTimeUnixNano),
          endNs: BigInt(span.endTimeUnixNano),
          resource,
        });
      }
    }
  }
  return out;
}

/** The collector: start it, point `OTEL_EXPORTER_OTLP_ENDPOINT` at `url`, read `spans`. */
export class OtlpCollector {
  readonly spans: CollectedSpan[] = [];
  /** Each export request's path and headers, in order. */
  readonly requests: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  private server: Server | undefined;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        this.requests.push({ path: req.url ?? "", headers: req.headers });
        try {
          if (req.method !== "POST" || req.url !== "/v1/traces") throw new Error(`unexpected ${req.method} ${req.url}`);
          this.spans.push(...decodeTraces(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
          res.writeHead(200, { "content-type": "application/json" }).end("{}");
        } catch (error) {
          res.writeHead(400, { "content-type": "text/plain" }).end(String(error));
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Forgets what was received (between tests). */
  clear(): void {
    this.spans.length = 0;
    this.requests.length = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
