/**
 * Stand-ins for the web globals `FormData` and `Response` inside the bundled provider SDKs. Node
 * defines them as lazy getters that load undici (~30 ms of CPU, ~13 MB of RSS) on first touch, and the
 * SDKs touch them on every request only to ask `body instanceof FormData`. These answer `instanceof`
 * by the value's own tag without touching the global, and construct the real class (loading undici
 * then, as the SDK needs it) when an upload really builds one. The build (tsup.config.ts) points the
 * SDKs' references at them.
 */

/** A class-like function: `new` builds the global `name`; `instanceof` reads the value's tag. */
function lazyGlobal<T>(name: "FormData" | "Response"): T {
  const tag = `[object ${name}]`;
  function LazyGlobal(this: unknown, ...args: unknown[]): unknown {
    const Real = (globalThis as unknown as Record<string, new (...a: unknown[]) => unknown>)[name]!;
    return new Real(...args);
  }
  Object.defineProperty(LazyGlobal, Symbol.hasInstance, {
    value: (value: unknown): boolean =>
      typeof value === "object" && value !== null && Object.prototype.toString.call(value) === tag,
  });
  return LazyGlobal as unknown as T;
}

/** `FormData` for the SDKs: `instanceof` without loading undici. */
export const LazyFormData: typeof FormData = lazyGlobal<typeof FormData>("FormData");

/** `Response` for the SDKs: `instanceof` without loading undici. */
export const LazyResponse: typeof Response = lazyGlobal<typeof Response>("Response");
