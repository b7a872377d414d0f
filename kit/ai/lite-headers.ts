/**
 * A small stand-in for the WHATWG `Headers` class. Touching Node's global `Headers` (or `fetch`,
 * `Response`) loads undici, Node's fetch implementation: ~30 ms of CPU and ~13 MB of resident memory
 * before the first request, which is most of what a `pi -p` run costs above bare Node. The provider SDKs
 * build every request's headers with `new Headers()`; the build (tsup.config.ts) points those references
 * at this class, and `nodeFetch` (node-fetch.ts) answers with it, so a request over node:http never
 * loads undici. Names are kept lower-case, values of a repeated name are joined with ", " as `Headers`
 * does; `instanceof LiteHeaders` also holds for a real `Headers`, so SDK code that checks
 * `headers instanceof Headers` still recognises one it is handed.
 */

/** What `new Headers(init)` accepts: another headers object, pairs, or a record. */
export type LiteHeadersInit =
  | Iterable<readonly [string, string]>
  | Iterable<readonly string[]>
  | Record<string, string | readonly string[] | undefined>;

/** Header names as HTTP allows them (RFC 9110 tokens). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The `Headers` subset the SDKs and the fetch consumers use, without undici. */
export class LiteHeaders implements Iterable<[string, string]> {
  private readonly map = new Map<string, string[]>();

  constructor(init?: LiteHeadersInit | null) {
    if (init === undefined || init === null) return;
    if (typeof (init as Iterable<unknown>)[Symbol.iterator] === "function") {
      for (const pair of init as Iterable<readonly string[]>) {
        if (pair.length !== 2) throw new TypeError("Headers: each header pair must have a name and a value");
        this.append(pair[0]!, pair[1]!);
      }
      return;
    }
    for (const [name, value] of Object.entries(init as Record<string, string | readonly string[] | undefined>)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) this.append(name, String(v));
      else this.append(name, String(value));
    }
  }

  /** True for this class and for Node's own `Headers` (both tagged "Headers"), which the SDKs also accept. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && Object.prototype.toString.call(value) === "[object Headers]";
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }

  append(name: string, value: string): void {
    const key = checkedName(name);
    const list = this.map.get(key);
    const clean = normalizeValue(value);
    if (list === undefined) this.map.set(key, [clean]);
    else list.push(clean);
  }

  set(name: string, value: string): void {
    this.map.set(checkedName(name), [normalizeValue(value)]);
  }

  get(name: string): string | null {
    const list = this.map.get(name.toLowerCase());
    return list === undefined ? null : list.join(", ");
  }

  /** Every `set-cookie` value on its own, as `Headers.getSetCookie()` gives them. */
  getSetCookie(): string[] {
    return [...(this.map.get("set-cookie") ?? [])];
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  delete(name: string): void {
    this.map.delete(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string, headers: LiteHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this) callback.call(thisArg, value, name, this);
  }

  /** Pairs sorted by name, as `Headers` iterates them. */
  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.map.keys()].sort()) yield [name, this.get(name)!];
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  /** The headers as node:http takes them: one string per name, several values of a name joined. */
  toRecord(): Record<string, string | string[]> {
    const record: Record<string, string | string[]> = {};
    for (const [name, list] of this.map) record[name] = list.length === 1 ? list[0]! : [...list];
    return record;
  }
}

function checkedName(name: string): string {
  if (!TOKEN.test(name)) throw new TypeError(`Headers: invalid header name ${JSON.stringify(name)}`);
  return name.toLowerCase();
}

/** `Headers` trims leading and trailing whitespace from values and rejects line breaks. */
function normalizeValue(value: string): string {
  const clean = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
  if (/[\r\n\0]/.test(clean)) throw new TypeError("Headers: a header value must not contain line breaks");
  return clean;
}
