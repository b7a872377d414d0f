/**
 * A JSON request body written piece by piece as the socket takes it. A long session's request is
 * megabytes of JSON (a 20,000-message history: 7.8 MB); `JSON.stringify` of it held the whole text, and
 * while building it V8 held its parts and the flattened copy together, ~17 MB of peak resident memory
 * on a `pi --session <file> -p` run (bench/RESULTS.md, 2026-12-06). Here each element of a long array
 * (the messages) is serialized on its own when the request is sent, so no more than one piece of the
 * text exists at a time. The text is the same, byte for byte, as `JSON.stringify(value)`.
 *
 * Content-Length needs the size first, so a big body is serialized twice: once to count its bytes, once
 * to send them. A body whose text stays short is kept from the first pass and sent as one string.
 */

/** Characters gathered into one piece before it is handed on. */
const PIECE_CHARS = 64 * 1024;
/** Bodies up to this many characters are kept whole from the counting pass and sent as one string. */
const KEEP_WHOLE_CHARS = 1024 * 1024;
/** Arrays with more elements than this are serialized element by element. */
const SPLIT_ARRAY_LENGTH = 32;

/**
 * An array whose elements are made as they are serialized: a request field (a long history converted to
 * the wire's messages) that need not exist whole. `JsonBody` writes each element as it is made and drops
 * it; anything else serializes it through `toJSON()`, which makes them all.
 */
export class JsonArrayStream<T> {
  /** `elements` is called once per serialization and must give the same elements each time. */
  constructor(readonly elements: () => Iterable<T>) {}

  /** The elements as an array, for `JSON.stringify` and anything else that is not `JsonBody`. */
  toJSON(): T[] {
    return [...this.elements()];
  }
}

/** The JSON text of one value as `JSON.stringify` writes it inside an object (`undefined`: the key is left out). */
function valueText(value: unknown, key: string): string | undefined {
  const json =
    value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function"
      ? (value as { toJSON(key: string): unknown }).toJSON(key)
      : value;
  return JSON.stringify(json);
}

/** The elements of a field written one by one: a `JsonArrayStream`, or a long plain array; else undefined. */
function splitElements(field: unknown): Iterable<unknown> | undefined {
  if (field instanceof JsonArrayStream) return field.elements();
  if (!Array.isArray(field) || field.length <= SPLIT_ARRAY_LENGTH) return undefined;
  return typeof (field as { toJSON?: unknown }).toJSON === "function" ? undefined : field;
}

/** What the counting pass learned: the UTF-8 size, and the text itself when it was short enough to keep. */
export interface JsonBodySize {
  bytes: number;
  text: string | undefined;
}

/** A request body sent as `JSON.stringify(value)` without ever holding that whole text. */
export class JsonBody {
  private size: JsonBodySize | undefined;

  constructor(readonly value: object) {}

  /** The JSON text in pieces of about PIECE_CHARS characters; each piece is a run of whole JSON tokens. */
  *pieces(): Generator<string> {
    const value = this.value;
    if (Array.isArray(value) || typeof (value as { toJSON?: unknown }).toJSON === "function") {
      yield JSON.stringify(value) ?? "null";
      return;
    }
    let piece = "{";
    let first = true;
    for (const key of Object.keys(value)) {
      const field = (value as Record<string, unknown>)[key];
      const elements = splitElements(field);
      if (elements !== undefined) {
        piece += `${first ? "" : ","}${JSON.stringify(key)}:[`;
        first = false;
        let index = 0;
        for (const element of elements) {
          piece += `${index === 0 ? "" : ","}${valueText(element, String(index)) ?? "null"}`;
          index++;
          if (piece.length >= PIECE_CHARS) {
            yield piece;
            piece = "";
          }
        }
        piece += "]";
        continue;
      }
      const text = valueText(field, key);
      if (text === undefined) continue;
      piece += `${first ? "" : ","}${JSON.stringify(key)}:${text}`;
      first = false;
      if (piece.length >= PIECE_CHARS) {
        yield piece;
        piece = "";
      }
    }
    yield `${piece}}`;
  }

  /** Serializes once to count the UTF-8 bytes (cached); keeps the text when it is at most KEEP_WHOLE_CHARS. */
  measure(): JsonBodySize {
    if (this.size !== undefined) return this.size;
    let bytes = 0;
    let chars = 0;
    let kept: string[] | undefined = [];
    for (const piece of this.pieces()) {
      bytes += Buffer.byteLength(piece, "utf8");
      chars += piece.length;
      if (kept !== undefined && chars <= KEEP_WHOLE_CHARS) kept.push(piece);
      else kept = undefined;
    }
    this.size = { bytes, text: kept?.join("") };
    return this.size;
  }

  /** The whole text, for a transport that can only send a string. */
  toString(): string {
    return this.measure().text ?? [...this.pieces()].join("");
  }
}
