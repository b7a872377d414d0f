import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkLayers } from "./layer-rule.js";

const PROJECT = fileURLToPath(new URL("../../", import.meta.url));

/** Writes a small tree of files into a fresh temp folder. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "pi-layers-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const CLEAN = {
  "kernel/index.ts": `export * from "./kernel.js";`,
  "kernel/kernel.ts": `import semver from "semver";\nexport const k = 1;`,
  "contracts/tool.ts": `import { defineContract } from "../kernel/index.js";\nimport { Type } from "@sinclair/typebox";`,
  "kit/walk.ts": `import { defineContract } from "../kernel/index.js";\nimport type { Tool } from "../contracts/tool.js";\nimport picomatch from "picomatch";`,
  "plugins/tools/tool-read/index.ts": `import { definePlugin, ToolContract } from "pi-host";\nimport { helper } from "./helper.js";\nimport OpenAI from "openai";`,
  "plugins/tools/tool-read/helper.ts": `export const helper = 1;`,
  "plugins/tools/tool-write/index.ts": `import { definePlugin } from "pi-host";`,
  "hosts/cli.ts": `import { Kernel } from "../kernel/index.js";\nimport "../contracts/tool.js";\nimport "../kit/walk.js";`,
};

describe("layer rule (docs/architecture.md §1)", () => {
  it("passes on the project itself", () => {
    expect(checkLayers(PROJECT)).toEqual([]);
  });

  it("passes on a clean fixture tree", () => {
    expect(checkLayers(tree(CLEAN))).toEqual([]);
  });

  const offenders: Array<[string, string, string]> = [
    ["kernel/kernel.ts", `import { Tool } from "../contracts/tool.js";`, "the kernel imports nothing from contracts"],
    [
      "kernel/loader.ts",
      `const p = await import("../plugins/tools/tool-read/index.js");`,
      "the kernel imports nothing from plugins/tools/tool-read",
    ],
    ["kernel/x.ts", `import "../hosts/cli.js";`, "the kernel imports nothing from hosts"],
    [
      "plugins/tools/tool-write/index.ts",
      `import { helper } from "../tool-read/helper.js";`,
      "a plugin never imports another plugin; go through a contract",
    ],
    [
      "plugins/tools/tool-write/index.ts",
      `import type { X } from "../tool-read/index.js";`,
      "a plugin never imports another plugin; go through a contract",
    ],
    [
      "plugins/tools/tool-write/index.ts",
      `const h = require("../tool-read/helper.js");`,
      "a plugin never imports another plugin; go through a contract",
    ],
    [
      "plugins/tools/tool-write/index.ts",
      `import { Kernel } from "../../../kernel/kernel.js";`,
      'a plugin imports the kernel, contracts and kit only as "pi-host", never by path (kernel)',
    ],
    [
      "plugins/tools/tool-write/index.ts",
      `import { definePlugin } from "../../../kernel/index.js";`,
      'a plugin imports the kernel, contracts and kit only as "pi-host", never by path (kernel)',
    ],
    [
      "plugins/tools/tool-write/index.ts",
      `import { ToolContract } from "../../../contracts/tool.js";`,
      'a plugin imports the kernel, contracts and kit only as "pi-host", never by path (contracts)',
    ],
    [
      "plugins/tools/tool-write/index.ts",
      `import { walk } from "../../../kit/walk.js";`,
      'a plugin imports the kernel, contracts and kit only as "pi-host", never by path (kit)',
    ],
    [
      "kit/glob.ts",
      `import { x } from "../plugins/tools/tool-read/helper.js";`,
      "kit imports nothing from plugins/tools/tool-read",
    ],
    ["kit/glob.ts", `import { main } from "../hosts/cli.js";`, "kit imports nothing from hosts"],
    [
      "kit/glob.ts",
      `import { Kernel } from "../kernel/kernel.js";`,
      "kit imports only the kernel's public API (kernel/index.ts)",
    ],
    ["kernel/x.ts", `import "../kit/walk.js";`, "the kernel imports nothing from kit"],
    ["contracts/ai.ts", `import "../kit/walk.js";`, "contracts import nothing from kit"],
    [
      "plugins/tools/tool-write/index.ts",
      `export { main } from "../../../hosts/cli.js";`,
      "a plugin never imports a host",
    ],
    [
      "hosts/sdk.ts",
      `import plugin from "../plugins/tools/tool-read/index.js";`,
      "a host never imports a plugin; it loads a distribution",
    ],
    [
      "contracts/ai.ts",
      `import { x } from "../plugins/tools/tool-read/helper.js";`,
      "contracts import nothing from plugins/tools/tool-read",
    ],
    ["contracts/ai.ts", `import OpenAI from "openai";`, "contracts import only the kernel's public API and TypeBox"],
  ];
  for (const [file, line, rule] of offenders) {
    it(`fails on ${file}: ${line}`, () => {
      const root = tree({ ...CLEAN, [file]: line });
      const violations = checkLayers(root);
      expect(violations).toHaveLength(1);
      expect(violations[0]).toMatchObject({ file, rule });
    });
  }
});
