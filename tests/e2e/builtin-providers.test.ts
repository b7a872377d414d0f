/**
 * The package commands find their plugins by contract among the compiled built-ins (needs `npm run
 * build`): the provider of the packages contract and, through its requirements, of settings.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PackagesContract } from "../../contracts/packages.js";
import { SettingsContract } from "../../contracts/resources.js";
import { HostEnvironmentContract } from "../../contracts/host-environment.js";
import { builtinProvidersOf } from "../../hosts/builtin-providers.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const place = { defaultFile: join(ROOT, "plugins.json"), builtinDir: join(ROOT, "dist", "plugins") };

describe("built-in providers by contract", () => {
  it("finds the packages plugin and the settings plugin it requires, settings first as the distribution orders them", async () => {
    const entries = await builtinProvidersOf([PackagesContract], place, [HostEnvironmentContract]);
    const loaded = await Promise.all(
      entries.map(async (e) => {
        if (e.source.kind !== "builtin") throw new Error(`not a built-in: ${e.id}`);
        const definition = (await import(e.source.path)).default as { provides?: Array<{ id: string }> };
        return (definition.provides ?? []).map((c) => c.id);
      }),
    );
    expect(loaded).toEqual([[SettingsContract.id], [PackagesContract.id]]);
  });

  it("says in one line when no built-in provides a contract", async () => {
    const empty = mkdtempSync(join(tmpdir(), "pi-builtins-"));
    const builtinDir = join(empty, "plugins");
    mkdirSync(join(builtinDir, "lonely"), { recursive: true });
    writeFileSync(
      join(builtinDir, "lonely", "index.js"),
      `export default { id: "lonely", version: "1.0.0", setup() {} };\n`,
    );
    await expect(
      builtinProvidersOf([PackagesContract], { defaultFile: join(empty, "none.json"), builtinDir }),
    ).rejects.toThrow(`no built-in plugin provides "${PackagesContract.id}"; reinstall pi-host`);
  });
});
