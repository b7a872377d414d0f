/**
 * The run-time members of ModelsContract 1.3 for test catalogs with a fixed model list: nothing is
 * registered, so no model has its own stream or registered key, and registering says this catalog is fixed.
 */
import type { ModelCatalog } from "../../contracts/ai/index.js";

/** Spread into a test catalog: `{ list, find, ..., ...fixedCatalogMembers }`. */
export const fixedCatalogMembers: Pick<
  ModelCatalog,
  "registerProvider" | "unregisterProvider" | "registerModel" | "unregisterModel" | "customStream" | "registeredApiKey"
> = {
  registerProvider: () => {
    throw new Error("this test catalog has a fixed model list");
  },
  unregisterProvider: () => {},
  registerModel: () => {
    throw new Error("this test catalog has a fixed model list");
  },
  unregisterModel: () => {},
  customStream: () => undefined,
  registeredApiKey: () => undefined,
};
