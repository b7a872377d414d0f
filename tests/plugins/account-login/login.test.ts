/**
 * `/login` and `/logout` through a mode's dialogs: pick the provider from the list, see the sign-in URL,
 * finish in the "browser" (this test), and the tokens land in auth.json; `/logout` removes them.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { CommandContract } from "../../../contracts/command.js";
import { NO_UI, UiContract, type UserInterface } from "../../../contracts/ui.js";
import { Kernel, definePlugin } from "../../../kernel/index.js";
import authPlugin from "../../../plugins/ai/auth/index.js";
import loginPlugin from "../../../plugins/ui/account-login/index.js";
import { OAuthTestServer } from "../../support/oauth-server.js";

let server: OAuthTestServer;
let kernel: Kernel;
const saved = { ...process.env };

beforeEach(async () => {
  server = await new OAuthTestServer().start();
  process.env.PI_OAUTH_ANTHROPIC_AUTHORIZE_URL = `${server.url}/oauth/authorize`;
  process.env.PI_OAUTH_ANTHROPIC_TOKEN_URL = `${server.url}/v1/oauth/token`;
  process.env.PI_OAUTH_CALLBACK_PORT = "0";
});
afterEach(async () => {
  await kernel.shutdown();
  await server.close();
  for (const name of ["PI_OAUTH_ANTHROPIC_AUTHORIZE_URL", "PI_OAUTH_ANTHROPIC_TOKEN_URL", "PI_OAUTH_CALLBACK_PORT"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

it("/login picks a provider from the list, shows the URL, and stores the sign-in; /logout removes it", async () => {
  const agentDir = mkdtempSync(join(tmpdir(), "pi-login-"));
  const notices: string[] = [];
  const selects: { title: string; options: string[] }[] = [];
  const browsed: Promise<Response>[] = [];
  const ui: UserInterface = {
    ...NO_UI,
    hasUI: () => true,
    async select(title, options) {
      selects.push({ title, options });
      return options.find((o) => o.startsWith("Anthropic") || o.startsWith("Browser"));
    },
    // The paste box stays open until the flow closes it (the browser finished).
    input: (_title, _placeholder, opts) =>
      new Promise((resolve) => opts?.signal?.addEventListener("abort", () => resolve(undefined))),
    notify(message) {
      notices.push(message);
      const url = /https?:\/\/\S+authorize\S*/.exec(message)?.[0];
      if (url !== undefined)
        browsed.push(fetch(url, { redirect: "manual" }).then((r) => fetch(r.headers.get("location")!)));
    },
  };
  const uiPlugin = definePlugin({
    id: "test-ui",
    version: "1.0.0",
    provides: [UiContract],
    setup: (ctx) => ctx.provide(UiContract, ui, { key: "interactive" }),
  });
  kernel = new Kernel();
  const boot = await kernel.boot([
    { id: "auth", source: { kind: "inline", label: "auth", definition: authPlugin }, config: { agentDir } },
    { id: "test-ui", source: { kind: "inline", label: "ui", definition: uiPlugin } },
    { id: "account-login", source: { kind: "inline", label: "account-login", definition: loginPlugin } },
  ]);
  expect(boot.errors).toEqual([]);
  const commands = kernel.useAll(CommandContract);
  await commands.find("login")!.api.run("");
  expect(selects[0]!.options).toEqual([
    "Anthropic (Claude Pro/Max) (anthropic)",
    "OpenAI (ChatGPT subscription) (openai)",
    "OpenAI (ChatGPT Plus/Pro) (openai-codex)",
    "GitHub Copilot (github-copilot)",
    "OpenRouter OAuth (openrouter)",
    "xAI (Grok/X subscription) (xai)",
    "Kimi Code (subscription) (kimi-coding)",
    "Meta (Muse subscription) (meta)",
    "Radius (radius)",
  ]);
  expect((await browsed[0]!).status).toBe(200);
  expect(notices.at(-1)).toBe("Logged in to Anthropic (Claude Pro/Max).");
  const file = join(agentDir, "auth.json");
  expect(JSON.parse(readFileSync(file, "utf8")).anthropic).toMatchObject({ type: "oauth", refresh: "refresh-2" });

  await commands.find("logout")!.api.run("anthropic");
  expect(notices.at(-1)).toBe("Logged out of Anthropic (Claude Pro/Max).");
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({});
});
