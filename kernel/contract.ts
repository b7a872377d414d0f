/**
 * Contracts are the only way one plugin reaches another. A contract is a typed token with a semver
 * version, a cardinality and a reload policy; the kernel never knows what a contract means.
 */

/** `single`: exactly one provider serves the contract (an agent loop); `many`: any number (tools). */
export type ContractKind = "single" | "many";

/**
 * How a reload of a provider is admitted.
 * `overlap`: stateless request/response; calls already admitted finish on the old generation.
 * `boundary`: stateful; new work waits while admitted work drains, bounded by `deadlineMs`.
 */
export type GatePolicy = "overlap" | "boundary";

/** The member names a provider must have, with the `typeof` each must answer. */
export type ContractShape = Record<string, "function" | "string" | "object" | "number" | "boolean">;

/** Methods of T: the members a typed view forwards. */
export type MethodKeys<T> = {
  [K in keyof T]-?: 0 extends 1 & T[K] ? never : NonNullable<T[K]> extends (...args: any[]) => any ? K : never;
}[keyof T];

/**
 * How a method answers: `sync` returns its value directly, so a call that a reload holds cannot wait and
 * fails with HandleHeldError; `async` returns a Promise, so a held call waits for the new generation.
 */
export type MethodMode = "sync" | "async";

/** Every method of T with its mode: a missing or misspelt method fails to compile. */
export type MethodList<T> = { [K in MethodKeys<T>]-?: MethodMode };

/** A typed, versioned token. `T` is the provider's interface; it exists only for the type checker. */
export interface Contract<T = unknown> {
  readonly id: string;
  readonly version: string;
  readonly kind: ContractKind;
  readonly gate: GatePolicy;
  /** For `boundary` contracts: how long a reload waits for a safe point before it is deferred. */
  readonly deadlineMs: number;
  readonly shape: ContractShape;
  /** The provider's methods, listed at run time so each handle can build its typed view. */
  readonly methods: Readonly<Record<string, MethodMode>>;
  /** The DI token under which the contract's stable handle is registered. */
  readonly token: string;
  /** Phantom field carrying `T`; never set at run time. */
  readonly __type?: T;
}

/** What `defineContract` takes: everything but the derived token. `methods` lists every method of T. */
export interface ContractSpec<T = unknown> {
  id: string;
  version: string;
  kind: ContractKind;
  gate: GatePolicy;
  deadlineMs?: number;
  shape?: ContractShape;
  methods: MethodList<T>;
}

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** Declares a contract. Contract modules call this once at import; the result is a plain frozen object. */
export function defineContract<T>(spec: ContractSpec<T>): Contract<T> {
  if (!/^[a-z][a-z0-9-]*(?:\/[a-z0-9-]+)*$/.test(spec.id))
    throw new Error(`contract id "${spec.id}" must be lower-case words separated by "/" or "-"`);
  if (!SEMVER.test(spec.version))
    throw new Error(`contract "${spec.id}": version "${spec.version}" is not semver (x.y.z)`);
  return Object.freeze({
    id: spec.id,
    version: spec.version,
    kind: spec.kind,
    gate: spec.gate,
    deadlineMs: spec.deadlineMs ?? 5_000,
    shape: Object.freeze({ ...(spec.shape ?? {}) }),
    methods: Object.freeze({ ...((spec.methods ?? {}) as Record<string, MethodMode>) }),
    token: `contract:${spec.id}`,
  });
}

/** Checks a provider value against the contract's declared shape; returns the first mismatch, if any. */
export function shapeMismatch(contract: Contract, value: unknown): string | undefined {
  if (value === null || (typeof value !== "object" && typeof value !== "function"))
    return `provider of "${contract.id}" must be an object, got ${value === null ? "null" : typeof value}`;
  for (const [member, expected] of Object.entries(contract.shape)) {
    const actual = typeof (value as Record<string, unknown>)[member];
    if (actual !== expected) return `provider of "${contract.id}" needs "${member}" to be a ${expected}, got ${actual}`;
  }
  return undefined;
}
