/**
 * `ctx.provide` during setup: checks one provider value against what the plugin declared and what the
 * contract asks for, builds it through DI when it is a class, and records it on the generation.
 */
import type { DependencyContainer } from "tsyringe";
import { shapeMismatch, type Contract } from "./contract.js";
import { ContractError } from "./errors.js";
import type { Generation } from "./generation.js";
import { providesOf } from "./plugin.js";

/** Checks and records one provider value; throws ContractError naming the plugin and the contract. */
export function recordProvide(gen: Generation, contract: Contract<any>, implementation: unknown, key?: string): void {
  const declared = providesOf(gen.definition).find((p) => p.contract.id === contract.id);
  if (declared === undefined)
    throw new ContractError(`plugin "${gen.pluginId}" provides "${contract.id}" without listing it in \`provides\``);
  const siblings = gen.provided.filter((p) => p.contract.id === contract.id);
  if (contract.kind === "single" && siblings.length > 0)
    throw new ContractError(`plugin "${gen.pluginId}" provides the single contract "${contract.id}" twice`);
  const slotKey = key ?? String(siblings.length);
  if (siblings.some((p) => p.key === slotKey))
    throw new ContractError(`plugin "${gen.pluginId}" provides "${contract.id}" twice under key "${slotKey}"`);
  const value = isClass(implementation) ? instantiate(implementation, gen.container!) : implementation;
  const mismatch = shapeMismatch(contract, value);
  if (mismatch) throw new ContractError(`plugin "${gen.pluginId}": ${mismatch}`);
  gen.provided.push({ contract, key: slotKey, version: declared.version, value });
}

function isClass(value: unknown): value is new (...args: any[]) => unknown {
  return typeof value === "function" && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

/**
 * Builds a class provider from its `@inject(token)` parameters. tsyringe's own `resolve` needs
 * `@injectable()`, which keeps every class in a global map forever and so would pin every retired
 * generation in memory; reading the injection tokens here keeps generations collectable.
 */
function instantiate(ctor: new (...args: any[]) => unknown, container: DependencyContainer): unknown {
  type Descriptor = { token: string | symbol; multiple?: boolean; isOptional?: boolean };
  const tokens = (Reflect.getOwnMetadata("injectionTokens", ctor) ?? {}) as Record<
    number,
    Descriptor | Descriptor["token"]
  >;
  const args = Array.from({ length: ctor.length }, (_, i) => {
    const entry = tokens[i];
    if (entry === undefined) throw new Error(`constructor parameter ${i} of ${ctor.name} has no @inject(token)`);
    const d: Descriptor = typeof entry === "object" ? entry : { token: entry };
    if (d.isOptional && !container.isRegistered(d.token, true)) return d.multiple ? [] : undefined;
    return d.multiple ? container.resolveAll(d.token) : container.resolve(d.token);
  });
  return new ctor(...args);
}
