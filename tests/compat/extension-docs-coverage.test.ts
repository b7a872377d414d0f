/**
 * Every event (`pi.on("name")`) and every `pi.register*` member that pi 1.6.0's own docs/extensions.md
 * shows is exercised by some pi-host test (the pi-extensions unit tests, their fixtures, the e2e and
 * compatibility tests), as does every `ctx.ui` member it shows, and our docs/extensions.md "not supported"
 * list keeps only what cannot be done here, each entry saying why.
 * Skipped with the reason when pi 1.6.0 is not installed in tests/compat/pi16.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PI16_CLI, pi16Missing } from "./pi16.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PI16_DOCS = join(PI16_CLI, "..", "..", "docs", "extensions.md");
/** Placeholders in pi's docs, not events. */
const NOT_NAMES = new Set(["event_name"]);

/** The text of every test and fixture that can exercise an extension API member (not this file). */
function testSources(): string {
  const folders = ["tests/plugins/pi-extensions", "tests/fixtures/pi-extensions", "tests/e2e", "tests/compat"];
  const texts: string[] = [];
  for (const folder of folders) {
    const dir = join(ROOT, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
      if (
        !/\.(ts|js|mjs)$/.test(name) ||
        name.includes("node_modules") ||
        name.endsWith("extension-docs-coverage.test.ts")
      )
        continue;
      texts.push(readFileSync(join(dir, name), "utf8"));
    }
  }
  return texts.join("\n");
}

if (pi16Missing) console.log(`skipping the docs coverage test: ${pi16Missing}`);

describe.skipIf(pi16Missing !== undefined)("pi 1.6.0's extension docs against pi-host's tests", () => {
  const docs = pi16Missing ? "" : readFileSync(PI16_DOCS, "utf8");
  const events = [...new Set([...docs.matchAll(/pi\.on\("([a-z_]+)"/g)].map((m) => m[1]!))].filter(
    (name) => !NOT_NAMES.has(name),
  );
  const registers = [...new Set([...docs.matchAll(/pi\.(register[A-Za-z]+)/g)].map((m) => m[1]!))];

  it("finds pi's events and register members in its docs", () => {
    expect(events.length).toBeGreaterThan(30);
    expect(registers).toEqual(expect.arrayContaining(["registerTool", "registerCommand", "registerMessageRenderer"]));
  });

  it("every event and register member has a test that uses it", () => {
    const sources = testSources();
    const untested = [
      ...events.filter((name) => !new RegExp(`["'\`]${name}["'\`]`).test(sources)),
      ...registers.filter((name) => !new RegExp(`\\.${name}\\(|["']${name}["']`).test(sources)),
    ];
    expect(untested).toEqual([]);
  });

  it("each entry of our not-supported list says why it cannot be done", () => {
    const ours = readFileSync(join(ROOT, "docs", "extensions.md"), "utf8");
    const start = ours.indexOf("## What throws");
    expect(start).toBeGreaterThan(-1);
    const section = ours.slice(start, ours.indexOf("\n## ", start + 1));
    const entries = section.split("\n- ").slice(1);
    // Only what cannot be done here is left, each with "cannot be done here because" and its reason.
    expect(entries.map((entry) => entry.slice(0, 40))).toEqual([
      expect.stringContaining("ctx.modelRegistry"),
      expect.stringContaining("The exports of pi's packages"),
    ]);
    for (const entry of entries) expect(entry, entry).toMatch(/cannot be done here because \S/);
  });

  it("every ctx.ui member pi's docs show has a test that uses it", () => {
    const sources = testSources();
    const members = [...new Set([...docs.matchAll(/ctx\.ui\.([a-zA-Z]+)\(/g)].map((m) => m[1]!))];
    expect(members).toEqual(expect.arrayContaining(["addAutocompleteProvider", "custom", "select"]));
    expect(members.filter((name) => !new RegExp(`ui\\.${name}\\(|["']${name}["']`).test(sources))).toEqual([]);
  });

  it("pi's message_end replacement and custom()'s blocked option have tests", () => {
    const sources = testSources();
    expect(sources).toMatch(/pi\.on\("message_end"[\s\S]{0,400}return \{\s*message:/);
    expect(sources).toMatch(/blocked: \{ kind: "question"/);
  });
});
