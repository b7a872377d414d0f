/**
 * pi 1.6.0's register members: renderers, transformers, shortcuts and MCP servers are recorded (never a
 * failed load), `getSettings` and `getMcpServers` read back, `mcp_servers_change` fires after load, and
 * flags take the command line's values (host environment `extensionFlags`) with the registered type.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { splitExtensionFlags } from "../../../hosts/cli-extension-flags.js";
import type { SessionHarness } from "../agent-session/harness.js";
import { bootWithExtensions, notices, recordingUi } from "./ext-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

function extension(source: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "pi-ext-register-")), "ext.ts");
  writeFileSync(file, source);
  return file;
}

describe("register members", () => {
  it("renderers, markdown transformer, shortcut and MCP server register at load; getMcpServers, getSettings and mcp_servers_change read back", async () => {
    const file = extension(`
import { Text } from "@earendil-works/pi-tui";
export default function (pi) {
  pi.registerMessageRenderer("card", (message) => new Text(message.content));
  pi.registerEntryRenderer("status", (entry) => new Text(JSON.stringify(entry.data)));
  pi.registerToolRenderer((name, next) => next());
  pi.registerMarkdownTransformer((md) => md.replaceAll("-->", "→"), { messageTypes: ["assistant"] });
  pi.registerShortcut("ctrl+shift+p", { description: "Toggle", handler: async () => {} });
  pi.registerMcpServer("docs", { command: "docs-server", args: ["--stdio"] });
  pi.on("mcp_servers_change", (event, ctx) => ctx.ui.notify("change " + event.servers.map((s) => s.name).join(",")));
  pi.registerCommand("more", { handler: async (_a, ctx) => {
    pi.registerMcpServer("web", { url: "http://127.0.0.1:1/mcp" });
    ctx.ui.notify(JSON.stringify({ servers: pi.getMcpServers(), settings: typeof pi.getSettings() }));
  } });
  pi.registerCommand("bad", { handler: async () => pi.registerMarkdownTransformer((m) => m, { messageTypes: ["nope"] }) });
}`);
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([file], { extra: [ui.plugin] }));
    await h.session.call("prompt", "/more");
    expect(JSON.parse(ui.notes()[0]!)).toEqual({
      servers: [
        { name: "docs", config: { command: "docs-server", args: ["--stdio"] } },
        { name: "web", config: { url: "http://127.0.0.1:1/mcp" } },
      ],
      settings: "object",
    });
    await h.session.call("prompt", "/bad");
    expect(ui.notes()).toContain("change docs,web");
    expect(notices(h.events)).toEqual([
      `extension ${file}: /bad: registerMarkdownTransformer: messageTypes are among user, assistant, assistant-thinking, custom, summary, changelog`,
    ]);
  });

  it("registerVirtualModel without a route throws why", async () => {
    const file = extension(
      `export default function (pi) { pi.registerCommand("vm", { handler: async () => pi.registerVirtualModel({ provider: "x", id: "y" }) }); }`,
    );
    const h = (harness = await bootWithExtensions([file]));
    await h.session.call("prompt", "/vm");
    expect(notices(h.events)).toEqual([`extension ${file}: /vm: registerVirtualModel(x/y) needs a route function`]);
  });
});

describe("registerFlag", () => {
  it("the host sets aside flags pi doesn't know, keeping typos and known flags' values for the parser", () => {
    expect(splitExtensionFlags(["--plan", "-p", "hi"])).toEqual({ argv: ["-p", "hi"], flags: { plan: true } });
    expect(splitExtensionFlags(["--reviewer=strict"])).toEqual({ argv: [], flags: { reviewer: "strict" } });
    expect(splitExtensionFlags(["--modle", "x"]).argv).toEqual(["--modle", "x"]);
    expect(splitExtensionFlags(["--model", "--plan"]).argv).toEqual(["--model", "--plan"]);
    expect(splitExtensionFlags(["--", "--plan"]).argv).toEqual(["--", "--plan"]);
  });

  it("getFlag reads the run's values with the registered type; a flag no extension registers is one error line", async () => {
    const file = extension(`
export default function (pi) {
  pi.registerFlag("plan", { type: "boolean", default: false });
  pi.registerFlag("reviewer", { type: "string", default: "lenient" });
  pi.registerFlag("quiet", { type: "boolean", default: true });
  pi.registerCommand("flags", { handler: async (_a, ctx) => ctx.ui.notify(JSON.stringify([pi.getFlag("plan"), pi.getFlag("reviewer"), pi.getFlag("quiet"), pi.getFlag("other")])) });
}`);
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([file], {
      extra: [ui.plugin],
      extensionConfig: { flags: { plan: true, reviewer: "strict", quiet: "false", typo: true } },
    }));
    await h.session.call("prompt", "/flags");
    expect(JSON.parse(ui.notes()[0]!)).toEqual([true, "strict", false, null]);
    expect(notices(h.events)).toEqual([
      "pi-extensions: unknown flag --typo: no extension registers it (pi --help lists pi's flags)",
    ]);
  });
});
