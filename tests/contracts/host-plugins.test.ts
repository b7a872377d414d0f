/**
 * `host/plugins`: the host's read-only plugin table, read by a plugin through its handle. It follows the
 * kernel (reloads, failures, disabled entries), says where each plugin's code came from, and hands out
 * frozen copies, so a plugin that changes what it got changes nothing else.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HostPluginsContract, readPluginTable, type PluginTableEntry } from "../../contracts/host-plugins.js";
import { CommandContract } from "../../contracts/command.js";
import { HOST_PLUGIN_ID, hostPluginEntry } from "../../hosts/host-plugin.js";
import { PluginTable } from "../../hosts/plugin-table.js";
import { definePlugin, Kernel, type Handle, type HostPluginsProvider, type PluginEntry } from "../../hosts/api.js";

const environment = { cwd: tmpdir(), agentDir: tmpdir(), projectTrust: { trusted: false, source: "default" as const } };

/** A plugin that lists plugins: it keeps the handle a real one would read from. */
function lister(found: { handle?: Handle<HostPluginsProvider> }) {
  return definePlugin({
    id: "lister",
    version: "1.0.0",
    requires: [HostPluginsContract],
    setup(ctx) {
      found.handle = ctx.use(HostPluginsContract);
    },
  });
}

function provider(version: string, key: string) {
  return definePlugin({
    id: "greeter",
    version,
    provides: [CommandContract],
    setup(ctx) {
      ctx.provide(CommandContract, { name: key, description: key, async run() {} }, { key });
    },
  });
}

const inline = (definition: ReturnType<typeof definePlugin>, extra: Partial<PluginEntry> = {}): PluginEntry => ({
  id: definition.id,
  source: { kind: "inline", label: definition.id, definition },
  ...extra,
});

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.shutdown();
  kernel = undefined;
});

/** Boots the host's own plugin, the lister and `entries`, as composeKernel does; returns the lister's view. */
async function boot(entries: PluginEntry[], packages: Array<{ source: string; root: string }> = []) {
  const table = new PluginTable([HOST_PLUGIN_ID], packages);
  kernel = new Kernel();
  table.attach(kernel);
  const found: { handle?: Handle<HostPluginsProvider> } = {};
  const result = await kernel.boot([hostPluginEntry(environment, table), inline(lister(found)), ...entries]);
  const read = (): readonly PluginTableEntry[] => {
    const plugins = readPluginTable(found.handle);
    if (plugins === undefined) throw new Error("no plugin table");
    return plugins;
  };
  const entry = (id: string): PluginTableEntry => {
    const hit = read().find((p) => p.id === id);
    if (hit === undefined) throw new Error(`no entry "${id}"`);
    return hit;
  };
  return { result, read, entry, kernel };
}

describe("host/plugins", () => {
  it("lists every entry in boot order, without the host's own plugin, with versions, contracts and state", async () => {
    const { read, entry } = await boot([
      inline(provider("1.0.0", "hello")),
      inline(provider("1.0.0", "off"), { id: "off", enabled: false }),
    ]);
    expect(read().map((p) => p.id)).toEqual(["lister", "greeter", "off"]);
    expect(entry("greeter")).toEqual({
      id: "greeter",
      version: "1.0.0",
      source: { kind: "inline", label: "greeter" },
      enabled: true,
      state: "active",
      generation: 1,
      provides: [{ contract: "command", version: CommandContract.version, key: "hello" }],
      requires: [],
    });
    expect(entry("lister").requires).toEqual([{ contract: "host/plugins", range: `^${HostPluginsContract.version}` }]);
    expect(entry("off")).toMatchObject({ enabled: false, state: "disabled", generation: undefined, provides: [] });
  });

  it("follows a reload: the new generation, version and contracts", async () => {
    const { entry, kernel } = await boot([inline(provider("1.0.0", "hello"))]);
    const reloaded = await kernel.reload("greeter", {
      source: { kind: "inline", label: "greeter", definition: provider("1.1.0", "hi") },
    });
    expect(reloaded.status).toBe("committed");
    expect(entry("greeter")).toMatchObject({
      version: "1.1.0",
      generation: 2,
      state: "active",
      provides: [{ contract: "command", key: "hi" }],
    });
    expect(entry("greeter").lastError).toBeUndefined();
  });

  it("shows a plugin that failed to boot as failed, with its error; a failed reload keeps the old generation and says why", async () => {
    const broken = definePlugin({
      id: "broken",
      version: "1.0.0",
      setup() {
        throw new Error("no wires");
      },
    });
    const { result, entry, kernel } = await boot([inline(broken), inline(provider("1.0.0", "hello"))]);
    expect(result.errors.map((e) => e.pluginId)).toEqual(["broken"]);
    expect(entry("broken")).toMatchObject({
      enabled: true,
      state: "failed",
      generation: undefined,
      lastError: { phase: "prepare", generation: 1, message: "no wires" },
    });
    const failed = await kernel.reload("greeter", {
      source: { kind: "inline", label: "greeter", definition: { ...provider("2.0.0", "x"), setup: broken.setup } },
    });
    expect(failed.status).toBe("aborted");
    expect(entry("greeter")).toMatchObject({
      state: "active",
      version: "1.0.0",
      generation: 1,
      lastError: { phase: "prepare", generation: 2, message: "no wires" },
    });
  });

  it("says which plugins are built-in, a path or from a package", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-host-plugins-"));
    const write = (path: string, id: string): string => {
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, `export default { id: ${JSON.stringify(id)}, version: "1.0.0", setup() {} };\n`);
      return path;
    };
    const local = write(join(dir, "mine", "index.mjs"), "mine");
    const packaged = write(join(dir, "npm", "node_modules", "pkg", "index.mjs"), "pkg");
    const builtinFile = write(join(dir, "dist", "plugins", "named", "index.mjs"), "named");
    const { entry } = await boot(
      [
        { id: "mine", source: { kind: "file", path: local } },
        { id: "pkg", source: { kind: "file", path: packaged } },
        { id: "named", source: { kind: "builtin", name: "named", path: builtinFile } },
      ],
      [{ source: "npm:pkg", root: join(dir, "npm", "node_modules", "pkg") }],
    );
    expect(entry("mine").source).toEqual({ kind: "path", label: local });
    expect(entry("pkg").source).toEqual({ kind: "package", label: packaged, package: "npm:pkg" });
    expect(entry("named").source).toEqual({ kind: "built-in", label: "named" });
    expect(entry("named").state).toBe("active");
  });

  it("hands out frozen copies: changing one changes neither the kernel nor the next answer", async () => {
    const { read, kernel } = await boot([inline(provider("1.0.0", "hello"))]);
    const before = kernel.describe();
    const first = read();
    expect(Object.isFrozen(first)).toBe(true);
    const greeter = first.find((p) => p.id === "greeter")!;
    expect(() => ((greeter as { state: string }).state = "disabled")).toThrow(TypeError);
    expect(() => (greeter.provides as unknown[]).push({ contract: "x" })).toThrow(TypeError);
    expect(() => ((greeter.source as { label: string }).label = "x")).toThrow(TypeError);
    expect(() => (first as PluginTableEntry[]).pop()).toThrow(TypeError);
    expect(kernel.describe()).toEqual(before);
    const second = read();
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
  });

  it("is read through a handle the plugin requires; without a host there is no table", () => {
    expect(readPluginTable(undefined)).toBeUndefined();
    const table = new PluginTable([]);
    expect(() => table.plugins()).toThrow("the plugin table was read before the host attached its kernel");
  });
});
