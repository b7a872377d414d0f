/**
 * The AWS event stream wire format (application/vnd.amazon.eventstream), written from its spec so the
 * test server is independent of the SDK that decodes it: each message is a prelude (total length,
 * headers length, CRC32 of those 8 bytes), typed headers, a payload, and a CRC32 of everything before it.
 */
import { crc32 } from "node:zlib";

/** String headers only: all that Bedrock's event messages carry. */
const STRING_TYPE = 7;

/** Encodes one message with string headers and a payload. */
export function encodeEventMessage(headers: Record<string, string>, payload: Uint8Array): Buffer {
  const headerParts: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const nameBytes = Buffer.from(name, "utf8");
    const valueBytes = Buffer.from(value, "utf8");
    const head = Buffer.alloc(1 + nameBytes.length + 1 + 2);
    head.writeUInt8(nameBytes.length, 0);
    nameBytes.copy(head, 1);
    head.writeUInt8(STRING_TYPE, 1 + nameBytes.length);
    head.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
    headerParts.push(head, valueBytes);
  }
  const headerBytes = Buffer.concat(headerParts);
  const total = 12 + headerBytes.length + payload.length + 4;
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(headerBytes.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const body = Buffer.concat([prelude, headerBytes, Buffer.from(payload)]);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([body, trailer]);
}

/** One Bedrock ConverseStream event, e.g. `bedrockEvent("contentBlockDelta", { ... })`. */
export function bedrockEvent(type: string, body: unknown): Buffer {
  return encodeEventMessage(
    { ":event-type": type, ":content-type": "application/json", ":message-type": "event" },
    Buffer.from(JSON.stringify(body), "utf8"),
  );
}

/** An exception sent inside the stream, e.g. `bedrockException("throttlingException", "slow down")`. */
export function bedrockException(type: string, message: string): Buffer {
  return encodeEventMessage(
    { ":exception-type": type, ":content-type": "application/json", ":message-type": "exception" },
    Buffer.from(JSON.stringify({ message }), "utf8"),
  );
}
