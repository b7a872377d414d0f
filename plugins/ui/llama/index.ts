/**
 * `/llama`: manage the models of a llama.cpp router, as pi 1.6.0 does. The list shows the router's
 * current models with their state; picking an unloaded one loads it (asking first whether to unload the
 * others that are loaded), picking a loaded one unloads it after a confirmation. The list comes back after
 * each action until closed (Escape). The router is `LLAMA_BASE_URL` (key: `LLAMA_API_KEY`).
 */
import { activeUi, CommandContract, definePlugin, type UserInterface, UiContract } from "pi-host";
import { LlamaClient, modelIsLoaded, normalizeServerUrl, type RouterModel } from "./client.js";

/** The router from the environment, or undefined (with a warning saying how to set it). */
function configuredClient(ui: UserInterface): LlamaClient | undefined {
  const url = process.env.LLAMA_BASE_URL?.trim();
  if (!url) {
    ui.notify("Configure llama.cpp: set LLAMA_BASE_URL to the router's URL (e.g. http://127.0.0.1:9931)", "warning");
    return undefined;
  }
  return new LlamaClient(normalizeServerUrl(url), process.env.LLAMA_API_KEY?.trim() || undefined);
}

const label = (model: RouterModel): string => `${model.id}  ${model.status.value}`;

async function loadModel(ui: UserInterface, client: LlamaClient, catalog: RouterModel[], target: RouterModel) {
  const loaded = catalog.filter((model) => model.id !== target.id && modelIsLoaded(model));
  if (loaded.length > 0) {
    const choice = await ui.select(`${loaded.length} model${loaded.length === 1 ? " is" : "s are"} loaded`, [
      "Unload all and load",
      "Keep loaded and load",
      "Cancel",
    ]);
    if (choice === undefined || choice === "Cancel") return;
    if (choice === "Unload all and load") for (const model of loaded) await client.unloadAndWait(model.id);
  }
  ui.notify(`Loading ${target.id}…`);
  await client.loadAndWait(target.id);
  const now = (await client.list()).find((model) => model.id === target.id);
  ui.notify(now?.status.value === "loaded" ? `Loaded ${target.id}` : `Load started for ${target.id}`);
}

async function unloadModel(ui: UserInterface, client: LlamaClient, model: RouterModel) {
  if (!(await ui.confirm("Unload model?", model.id))) return;
  await client.unloadAndWait(model.id);
  ui.notify(`Unloaded ${model.id}`);
}

/** The command: the model list, then the picked model's action, until the list is closed. */
async function manage(ui: UserInterface): Promise<void> {
  const client = configuredClient(ui);
  if (client === undefined) return;
  for (;;) {
    let catalog: RouterModel[];
    try {
      catalog = await client.list();
    } catch (error) {
      ui.notify((error as Error).message, "error");
      return;
    }
    if (catalog.length === 0) {
      ui.notify(`The llama.cpp router at ${client.serverUrl} has no models.`);
      return;
    }
    const picked = await ui.select(`llama.cpp router ${client.serverUrl}`, catalog.map(label));
    const model = catalog.find((candidate) => label(candidate) === picked);
    if (model === undefined) return;
    try {
      if (modelIsLoaded(model)) await unloadModel(ui, client, model);
      else if (model.status.value === "unloaded") await loadModel(ui, client, catalog, model);
      else ui.notify(`${model.id} is ${model.status.value}`, "warning");
    } catch (error) {
      ui.notify((error as Error).message, "error");
    }
  }
}

export default definePlugin({
  id: "llama",
  version: "1.0.0",
  description: "/llama: list, load and unload the models of a llama.cpp router",
  provides: [CommandContract],
  requires: [{ contract: UiContract, optional: true }],
  setup(ctx) {
    const uis = ctx.useAll(UiContract);
    ctx.provide(
      CommandContract,
      {
        name: "llama",
        // pi 1.6.0's words: the command of its built-in llama.cpp extension.
        description: "Manage llama.cpp router models",
        sourceInfo: { path: "builtin:llama.cpp", source: "builtin", scope: "temporary", origin: "top-level" },
        run: async () => {
          const ui = activeUi(uis);
          if (!ui.hasUI()) {
            ui.notify("/llama is available in interactive mode", "warning");
            return;
          }
          await manage(ui);
        },
      },
      { key: "llama" },
    );
  },
});
