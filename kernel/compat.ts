/**
 * Contract compatibility: version ranges and cardinality, checked at prepare against the plugins that
 * would be live after the change. Pure functions over plain data, so boot and reload share them.
 */
import semver from "semver";
import { ContractError } from "./errors.js";
import { type PluginDefinition, type Provision, providesOf, type Requirement, requiresOf } from "./plugin.js";

/** One plugin's offer of a contract. */
export interface Offer extends Provision {
  pluginId: string;
}

/** One plugin's (or the host's) need of a contract; `who` names it in errors. */
export interface Need extends Requirement {
  who: string;
}

/** Throws ContractError if `offers` of one plugin clash with the `others` already live or their `needs`. */
export function checkOffers(pluginId: string, offers: Offer[], others: Offer[], needs: Need[]): void {
  for (const offer of offers) {
    if (!semver.valid(offer.version))
      throw new ContractError(
        `plugin "${pluginId}" provides "${offer.contract.id}" at "${offer.version}", which is not a semver version`,
      );
    const rival = others.find((o) => o.contract.id === offer.contract.id && o.pluginId !== pluginId);
    if (offer.contract.kind === "single" && rival !== undefined)
      throw new ContractError(
        `"${offer.contract.id}" takes a single provider: plugin "${rival.pluginId}" already provides it, so plugin "${pluginId}" cannot; disable one of them`,
      );
    checkRanges(
      needs.filter((need) => need.who !== `plugin "${pluginId}"`),
      [offer],
    );
  }
}

/** Throws ContractError if a need of `who` is unmet or met at an incompatible version. */
export function checkNeeds(needs: Need[], offers: Offer[]): void {
  for (const need of needs) {
    if (!semver.validRange(need.range))
      throw new ContractError(
        `${need.who} requires "${need.contract.id}" at "${need.range}", which is not a semver range`,
      );
    if (need.contract.kind === "single" && !need.optional && !offers.some((o) => o.contract.id === need.contract.id))
      throw new ContractError(
        `${need.who} requires "${need.contract.id}" ${need.range}, but no enabled plugin provides it`,
      );
    checkRanges([need], offers);
  }
}

/** Throws ContractError naming both sides if an offer of a needed contract is outside the need's range. */
function checkRanges(needs: Need[], offers: Offer[]): void {
  for (const need of needs) {
    for (const offer of offers) {
      if (offer.contract.id !== need.contract.id) continue;
      if (semver.satisfies(offer.version, need.range, { includePrerelease: true })) continue;
      throw new ContractError(
        `${need.who} requires "${need.contract.id}" ${need.range}, but plugin "${offer.pluginId}" provides "${need.contract.id}" ${offer.version}`,
      );
    }
  }
}

/** A plugin as compatibility sees it: its id and definition (a Generation is one). */
export interface Declarer {
  pluginId: string;
  definition: PluginDefinition<any, any>;
}

/** A plugin's `provides`, as offers. */
export function offersOf({ pluginId, definition }: Declarer): Offer[] {
  return providesOf(definition).map((p) => ({ pluginId, ...p }));
}

/** A plugin's `requires`, as needs. */
export function needsOf({ pluginId, definition }: Declarer): Need[] {
  return requiresOf(definition).map((r) => ({ who: `plugin "${pluginId}"`, ...r }));
}
