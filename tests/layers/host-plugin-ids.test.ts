/**
 * Hosts never name a plugin id (docs/architecture.md §5): what a host needs from plugins it finds by
 * contract, so a distribution may replace any plugin under another id. This reads every source file in
 * hosts/ and fails on a string literal equal to an id of the default distribution (plugins.json), or on
 * a template that builds one from its prefix (`mode-${name}`). plugins.json itself is the one list that
 * names them, and it is not in hosts/.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FLAGS } from "../../hosts/cli-flag-table.js";

const PROJECT = fileURLToPath(new URL("../../", import.meta.url));

/** The ids the package's default distribution runs. */
function distributionIds(): string[] {
  const file = JSON.parse(readFileSync(join(PROJECT, "plugins.json"), "utf8")) as { plugins: Array<{ id: string }> };
  return file.plugins.map((p) => p.id);
}

/** Every TypeScript source under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith(".ts") ? [join(dir, d.name)] : [],
  );
}

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `file:line: text` for each line of `text` that quotes an id or builds one from a prefix. */
function pluginIdHits(file: string, text: string, ids: string[]): string[] {
  const quoted = ids.map((id) => new RegExp(`["'\`]${literal(id)}["'\`]`));
  const prefixes = [...new Set(ids.filter((id) => id.includes("-")).map((id) => id.slice(0, id.indexOf("-") + 1)))];
  const built = prefixes.map((prefix) => new RegExp(`["'\`\\s]${literal(prefix)}\\$\\{`));
  const hits: string[] = [];
  text.split("\n").forEach((line, index) => {
    if ([...quoted, ...built].some((pattern) => pattern.test(line))) hits.push(`${file}:${index + 1}: ${line.trim()}`);
  });
  return hits;
}

describe("hosts name no plugin id", () => {
  const ids = distributionIds();

  it("reads the ids from plugins.json", () => {
    expect(ids).toContain("agent-session");
    expect(ids).toContain("settings");
    expect(ids.length).toBeGreaterThan(10);
  });

  it("finds none in hosts/", () => {
    // pi's own flag names are words of the command line, not ids: `--models` is a flag in the flag table
    // and its parser even though a plugin is called "models".
    const flagFiles = ["hosts/cli-flag-table.ts", "hosts/cli-flags.ts"];
    const flagNames = new Set(FLAGS.map((f) => f.name));
    const hits = sources(join(PROJECT, "hosts")).flatMap((file) => {
      const name = file.slice(PROJECT.length);
      const checked = flagFiles.includes(name) ? ids.filter((id) => !flagNames.has(id)) : ids;
      return pluginIdHits(name, readFileSync(file, "utf8"), checked);
    });
    expect(hits).toEqual([]);
  });

  it("would catch a quoted id, an id in a message and an id built from its prefix", () => {
    const sample = [
      'const BUILTINS = ["settings", "packages"];',
      'fail(`enable "mode-json" in plugins.json`);',
      'fail(`enable "mode-${mode}"`);',
      "import { AgentSessionContract } from '../contracts/agent-session.js';",
      "// the settings plugin reads settings.json",
    ].join("\n");
    expect(pluginIdHits("x.ts", sample, ["settings", "mode-json", "agent-session"])).toEqual([
      'x.ts:1: const BUILTINS = ["settings", "packages"];',
      'x.ts:2: fail(`enable "mode-json" in plugins.json`);',
      'x.ts:3: fail(`enable "mode-${mode}"`);',
    ]);
  });
});
