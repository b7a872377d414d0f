/**
 * `/login` and `/logout`: sign in to (or out of) a subscription provider — Claude Pro/Max, ChatGPT,
 * GitHub Copilot — from the TUI or any mode with a user interface. The provider is picked from a list
 * (or named: `/login anthropic`); the sign-in itself is the auth plugin's (AccountAuthContract), shown
 * through the mode's dialogs.
 */
import {
  AccountAuthContract,
  activeUi,
  CommandContract,
  definePlugin,
  type AccountAuth,
  type UserInterface,
  UiContract,
} from "pi-host";
import { dialogInteraction } from "./dialog.js";

/** Picks the provider: the one named in `args`, else the user's choice among `ids`. */
async function pickProvider(
  ui: UserInterface,
  title: string,
  choices: { id: string; name: string }[],
  args: string,
): Promise<{ id: string; name: string } | undefined> {
  const named = args.trim();
  if (named !== "") {
    const found = choices.find((choice) => choice.id === named);
    if (found === undefined)
      ui.notify(`Unknown provider "${named}". Providers: ${choices.map((c) => c.id).join(", ")}`, "error");
    return found;
  }
  if (choices.length === 0) return undefined;
  const picked = await ui.select(
    title,
    choices.map((choice) => `${choice.name} (${choice.id})`),
  );
  return choices.find((choice) => `${choice.name} (${choice.id})` === picked);
}

async function login(accounts: AccountAuth, ui: UserInterface, args: string): Promise<void> {
  const provider = await pickProvider(ui, "Select a provider to log in to", accounts.loginProviders(), args);
  if (provider === undefined) return;
  const abort = new AbortController();
  try {
    await accounts.login(provider.id, dialogInteraction(ui, abort.signal));
    ui.notify(`Logged in to ${provider.name}.`);
  } catch (error) {
    const message = (error as Error).message;
    ui.notify(
      message === "Login cancelled" ? "Login cancelled." : `Failed to log in to ${provider.name}: ${message}`,
      "error",
    );
  } finally {
    abort.abort();
  }
}

async function logout(accounts: AccountAuth, ui: UserInterface, args: string): Promise<void> {
  const names = new Map(accounts.loginProviders().map((p) => [p.id, p.name]));
  const stored = (await accounts.stored()).filter((entry) => entry.type === "oauth");
  const choices = stored.map((entry) => ({ id: entry.provider, name: names.get(entry.provider) ?? entry.provider }));
  if (choices.length === 0 && args.trim() === "") {
    ui.notify("No provider is logged in.");
    return;
  }
  const provider = await pickProvider(ui, "Select a provider to log out of", choices, args);
  if (provider === undefined) return;
  await accounts.logout(provider.id);
  ui.notify(`Logged out of ${provider.name}.`);
}

export default definePlugin({
  id: "account-login",
  version: "1.0.0",
  description: "/login and /logout: subscription sign-in (Claude Pro/Max, ChatGPT, Copilot) from the UI",
  provides: [CommandContract],
  requires: [
    { contract: AccountAuthContract, optional: true },
    { contract: UiContract, optional: true },
  ],
  setup(ctx) {
    const accounts = ctx.use(AccountAuthContract);
    const uis = ctx.useAll(UiContract);
    const run = (task: (accounts: AccountAuth, ui: UserInterface) => Promise<void>) => async () => {
      const ui = activeUi(uis);
      if (!accounts.available) {
        ui.notify("No plugin provides account sign-in; enable the auth plugin in plugins.json.", "error");
        return;
      }
      await task(accounts.api, ui);
    };
    ctx.provide(
      CommandContract,
      {
        name: "login",
        description: "Log in to a provider with your subscription (/login [provider])",
        run: (args) => run((a, ui) => login(a, ui, args))(),
      },
      { key: "login" },
    );
    ctx.provide(
      CommandContract,
      {
        name: "logout",
        description: "Log out of a provider (/logout [provider])",
        run: (args) => run((a, ui) => logout(a, ui, args))(),
      },
      { key: "logout" },
    );
  },
});
