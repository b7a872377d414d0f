/**
 * A plugin is a plain object. `definePlugin` only checks it and gives authors types; the kernel owns
 * everything that happens after.
 */
import type { TSchema, Static } from "@sinclair/typebox";
import type { Contract } from "./contract.js";
import type { PluginContext } from "./context.js";

/** A contract this plugin implements, at the contract version it was written against. */
export interface ProvideDecl {
  contract: Contract<any>;
  /** Defaults to the version of the contract object the plugin imported. */
  version?: string;
}

/** A contract this plugin consumes, with the semver range it accepts. */
export interface RequireDecl {
  contract: Contract<any>;
  /** Defaults to `^<version of the contract object the plugin imported>`. */
  range?: string;
  /** An optional requirement does not fail prepare when nobody provides the contract. */
  optional?: boolean;
}

/** Plugin state that survives reloads; `migrate` carries it across versions (Erlang's code_change). */
export interface StateSpec<S> {
  version: number;
  schema: TSchema;
  initial: () => S;
  /** Turns the previous generation's state (at `fromVersion`) into this version's. Runs once per reload. */
  migrate?: (previous: unknown, fromVersion: number) => S;
}

/** Everything a plugin is. `setup` is declare-only: it registers, it does not act. */
export interface PluginDefinition<C extends TSchema = TSchema, S = unknown> {
  id: string;
  version: string;
  description?: string;
  provides?: Array<Contract<any> | ProvideDecl>;
  requires?: Array<Contract<any> | RequireDecl>;
  config?: C;
  state?: StateSpec<S>;
  setup: (ctx: PluginContext<Static<C>, S>) => void;
}

/** Declares a plugin; throws at import on a malformed definition, so the load phase reports it. */
export function definePlugin<C extends TSchema, S = unknown>(
  definition: PluginDefinition<C, S>,
): PluginDefinition<C, S> {
  const problem = definitionProblem(definition);
  if (problem) throw new Error(problem);
  return definition;
}

/** Why a value is not a usable plugin definition, or undefined when it is one. */
export function definitionProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== "object")
    return "module does not export a plugin (export default definePlugin({...}))";
  const d = value as Partial<PluginDefinition>;
  if (typeof d.id !== "string" || d.id === "") return "plugin has no string `id`";
  if (typeof d.version !== "string" || !/^\d+\.\d+\.\d+/.test(d.version))
    return `plugin "${d.id}" needs a semver \`version\``;
  if (typeof d.setup !== "function") return `plugin "${d.id}" has no \`setup(ctx)\` function`;
  return undefined;
}

/** A `provides` entry normalized: the contract and the version this plugin offers it at. */
export type Provision = Required<ProvideDecl>;

/** A `requires` entry normalized: the contract, the accepted range, and whether it may be missing. */
export type Requirement = Required<RequireDecl>;

/** Normalizes `provides` entries to `{contract, version}`. */
export function providesOf(definition: PluginDefinition<any, any>): Provision[] {
  return (definition.provides ?? []).map((p) =>
    "contract" in p
      ? { contract: p.contract, version: p.version ?? p.contract.version }
      : { contract: p, version: p.version },
  );
}

/** Normalizes `requires` entries to `{contract, range, optional}`. */
export function requiresOf(definition: PluginDefinition<any, any>): Requirement[] {
  return (definition.requires ?? []).map((r) =>
    "contract" in r
      ? { contract: r.contract, range: r.range ?? `^${r.contract.version}`, optional: r.optional ?? false }
      : { contract: r, range: `^${r.version}`, optional: false },
  );
}
