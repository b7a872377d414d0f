/**
 * pi 1.6.0's `/name`, `/fork`, `/hotkeys`, `/reload`, `/mcp`, `/login` and `/logout` in the built CLI's
 * terminal UI, in tmux, one test each, against local servers only: an OpenAI-compatible model server, a
 * stdio MCP server from the fixtures, and a stand-in OAuth server for the sign-in.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { OAuthTestServer } from "../support/oauth-server.js";
import { askAndWait, command, type TuiPane, tuiSuite } from "./tui-suite.js";

const TINY_MCP = resolve(import.meta.dirname, "../fixtures/mcp/tiny-server.mjs");

const suite = tuiSuite("the TUI slash command end-to-end tests", [{ id: "alpha-1" }]);

type Pane = TuiPane;

const start = (env: Record<string, string> = {}, width = 80): Pane => suite.start({ env, width, height: 30 });

/** Sends a prompt and waits for its answer with the run over (the "Working…" line gone). */
const ask = (pane: Pane, prompt: string, answer: string) => askAndWait(suite, pane, prompt, answer);

type Entry = { type: string; [key: string]: unknown };
const entries = (file: string): Entry[] =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Entry);

describe.skipIf(!suite.hasTmux)(
  "TUI slash commands in tmux: /name /fork /hotkeys /reload /mcp /login /logout",
  { timeout: 60_000 },
  () => {
    it.each([
      ["/name", "Name the session"],
      ["/fork", "Fork a new session from an earlier user message"],
      ["/hotkeys", "Show the keyboard shortcuts"],
      ["/reload", "Ask the host to reload plugins"],
      ["/login", "Log in to a provider with your subscription"],
      ["/logout", "Log out of a provider"],
      ["/llama", "Manage llama.cpp router models"],
    ])("%s shows in the editor's autocomplete with its description", async (typed, description) => {
      const pane = start();
      await pane.waitFor("alpha-1");
      // The whole name alone would be a complete match, which closes the list: type all but its last letter.
      pane.type(typed.slice(0, -1));
      await pane.waitFor(description);
    });

    it("/name sets the session name, saved as a session_info entry; /name alone shows it", async () => {
      const pane = start();
      await pane.waitFor("alpha-1");
      command(pane, "/name");
      await pane.waitFor("Usage: /name <name>");
      await ask(pane, "name this one", "named answer");
      command(pane, "/name release notes");
      await pane.waitFor("Session name set: release notes");
      const files = suite.user.sessionFiles();
      expect(files).toHaveLength(1);
      const info = entries(files[0]!).filter((e) => e.type === "session_info");
      expect(info.map((e) => e.name)).toEqual(["release notes"]);
      command(pane, "/name");
      await pane.waitFor("Session name: release notes");
    });

    it("/resume: ctrl+n (app.session.toggleNamedFilter) lists only named sessions; ctrl+p (togglePath) shows the files", async () => {
      const pane = start({}, 120);
      await pane.waitFor("alpha-1");
      await ask(pane, "an unnamed chat", "first answer");
      command(pane, "/new");
      await pane.waitFor((s) => !s.includes("first answer"), { all: false });
      await ask(pane, "a chat with a name", "second answer");
      command(pane, "/name release notes");
      await pane.waitFor("Session name set: release notes");
      command(pane, "/resume");
      await pane.waitFor(
        (s) => s.includes("Resume a session") && s.includes("an unnamed chat") && s.includes("release notes"),
      );
      pane.keys("C-n");
      let screen = await pane.waitFor((s) => s.includes("release notes") && !s.includes("an unnamed chat"), {
        all: false,
      });
      expect(screen).not.toContain(".jsonl");
      pane.keys("C-p");
      screen = await pane.waitFor("~/agent/sessions/", { all: false });
      expect(screen).toContain("release notes");
      pane.keys("C-n");
      await pane.waitFor((s) => s.includes("an unnamed chat") && s.includes("release notes"), { all: false });
    });

    it("/fork forks before an earlier user message into a new session file, with that message in the editor", async () => {
      const pane = start();
      await pane.waitFor("alpha-1");
      await ask(pane, "first question", "first answer");
      await ask(pane, "second question", "second answer");
      command(pane, "/fork");
      await pane.waitFor("Fork from a message");
      // Newest first: the second question is the selected one.
      pane.keys("Enter");
      await pane.waitFor("Forked to new session");
      const files = suite.user.sessionFiles();
      expect(files).toHaveLength(2);
      const texts = files.map((f) => readFileSync(f, "utf8"));
      const forked = texts.find((t) => !t.includes("second question"));
      expect(forked).toBeDefined();
      expect(forked).toContain("first question");
      expect(forked).toContain("first answer");
      // The editor holds the message forked from, ready to edit and send again.
      const editorLine = (screen: string) => screen.trimEnd().split("\n").slice(-6).join("\n");
      await pane.waitFor((screen) => editorLine(screen).includes("second question"), { all: false });
    });

    it("/hotkeys lists the keyboard shortcuts", async () => {
      const pane = start();
      await pane.waitFor("alpha-1");
      command(pane, "/hotkeys");
      await pane.waitFor("Keyboard Shortcuts");
      const screen = await pane.waitFor("complete /commands and @files");
      expect(screen).toContain("model picker");
      expect(screen).toContain("cycle thinking level");
      // /hotkeys is the keys only; /help adds the commands.
      expect(screen).not.toContain("Commands:");
    });

    it("/reload reloads a plugin loaded from source: its edited prompt template replaces the old one", async () => {
      const dir = join(suite.user.home, "marker");
      mkdirSync(dir);
      const plugin = (name: string) => `import { definePlugin, ResourcesContract } from "pi-host";
export default definePlugin({
  id: "marker",
  version: "1.0.0",
  provides: [ResourcesContract],
  setup(ctx) {
    ctx.provide(ResourcesContract, {
      promptSections: async () => [],
      skills: async () => [],
      templates: async () => [{ name: ${JSON.stringify(name)}, description: "the ${name} template", body: "", path: "/marker", origin: "user" }],
    });
  },
});
`;
      writeFileSync(join(dir, "index.ts"), plugin("marker-one"));
      writeFileSync(join(suite.user.agent, "plugins.json"), JSON.stringify({ plugins: [{ id: "marker", use: dir }] }));
      const pane = start();
      await pane.waitFor("alpha-1");
      pane.type("/marker-on");
      await pane.waitFor("the marker-one template");
      pane.keys("C-u");
      await pane.waitFor((screen) => !screen.includes("the marker-one template"), { all: false });
      writeFileSync(join(dir, "index.ts"), plugin("marker-two"));
      command(pane, "/reload");
      await pane.waitFor("Reloading plugins loaded from source");
      // The reload runs in the background: retype until the new template is offered.
      for (let i = 0; ; i++) {
        pane.type("/marker-tw");
        try {
          await pane.waitFor("the marker-two template", { all: false, timeoutMs: 1_000 });
          break;
        } catch (error) {
          if (i === 20) throw error;
        }
        pane.keys("C-u");
      }
      pane.keys("C-u");
      pane.type("/marker-on");
      await pane.waitFor((screen) => !screen.includes("the marker-one template"), { all: false });
    });

    it("/mcp lists the configured MCP servers and their state", async () => {
      writeFileSync(
        join(suite.user.agent, "mcp.json"),
        JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [TINY_MCP] } } }),
      );
      const pane = start({}, 200);
      await pane.waitFor("alpha-1");
      command(pane, "/mcp");
      await pane.waitFor(`tiny [stdio] ${process.execPath} ${TINY_MCP}:`);
      command(pane, "/mcp disable tiny");
      await pane.waitFor('MCP server "tiny" disabled');
      command(pane, "/mcp");
      await pane.waitFor(`${TINY_MCP}: disabled`);
      command(pane, "/mcp enable nothere");
      await pane.waitFor('/mcp enable: no MCP server is named "nothere" (configured: tiny)');
    });

    it("/logout signs out of a stored subscription, leaving the other credentials in auth.json", async () => {
      const authFile = join(suite.user.agent, "auth.json");
      const stored = {
        "github-copilot": { type: "oauth", access: "a", refresh: "r", expires: Date.now() + 3_600_000 },
        openai: { type: "api_key", key: "sk-kept" },
      };
      writeFileSync(authFile, JSON.stringify(stored));
      const pane = start();
      await pane.waitFor("alpha-1");
      command(pane, "/logout nothere");
      await pane.waitFor('Unknown provider "nothere". Providers: github-copilot');
      command(pane, "/logout");
      await pane.waitFor("Select a provider to log out of");
      await pane.waitFor("GitHub Copilot (github-copilot)");
      pane.keys("Enter");
      await pane.waitFor("Logged out of GitHub Copilot.");
      expect(JSON.parse(readFileSync(authFile, "utf8"))).toEqual({ openai: { type: "api_key", key: "sk-kept" } });
      command(pane, "/logout");
      await pane.waitFor("No provider is logged in.");
    });

    it("/login signs in to a subscription provider through the browser, stored in auth.json; /logout removes it", async () => {
      const oauth = await new OAuthTestServer().start();
      try {
        const pane = start(
          {
            PI_OAUTH_ANTHROPIC_AUTHORIZE_URL: `${oauth.url}/oauth/authorize`,
            PI_OAUTH_ANTHROPIC_TOKEN_URL: `${oauth.url}/v1/oauth/token`,
            PI_OAUTH_CALLBACK_PORT: "0",
          },
          1000,
        );
        await pane.waitFor("alpha-1");
        command(pane, "/logout");
        await pane.waitFor("No provider is logged in.");
        command(pane, "/login");
        await pane.waitFor("Select a provider to log in to");
        await pane.waitFor("GitHub Copilot (github-copilot)");
        pane.keys("Enter");
        await pane.waitFor("Select Anthropic login method:", { all: false });
        await pane.waitFor("Browser login (default)");
        pane.keys("Enter");
        const screen = await pane.waitFor(/https?:\/\/\S+authorize\S*/);
        const url = /https?:\/\/\S+authorize\S*/.exec(screen)![0];
        // The "browser": follow the authorize redirect to pi's loopback callback.
        const redirect = await fetch(url, { redirect: "manual" });
        expect((await fetch(redirect.headers.get("location")!)).status).toBe(200);
        await pane.waitFor("Logged in to Anthropic (Claude Pro/Max).");
        const authFile = join(suite.user.agent, "auth.json");
        expect(JSON.parse(readFileSync(authFile, "utf8")).anthropic).toMatchObject({ type: "oauth" });
        command(pane, "/logout");
        await pane.waitFor("Select a provider to log out of");
        pane.keys("Enter");
        await pane.waitFor("Logged out of Anthropic (Claude Pro/Max).");
        expect(JSON.parse(readFileSync(authFile, "utf8")).anthropic).toBeUndefined();
      } finally {
        await oauth.close();
      }
    });
  },
);
