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
  "plugins/tool-read/index.ts": `import { definePlugin } from "../../kernel/index.js";\nimport { Tool } from "../../contracts/tool.js";\nimport { helper } from "./helper.js";`,
  "plugins/tool-read/helper.ts": `export const helper = 1;`,
  "hosts/cli.ts": `import { Kernel } from "../kernel/index.js";\nimport "../contracts/tool.js";`,
};

describe("layer rule (ARCHITECTURE §1)", () => {
  it("passes on the project itself", () => {
    expect(checkLayers(PROJECT)).toEqual([]);
  });

  it("passes on a clean fixture tree", () => {
    expect(checkLayers(tree(CLEAN))).toEqual([]);
  });

  const offenders: Array<[string, string, string]> = [
    ["kernel/kernel.ts", `import { Tool } from "../contracts/tool.js";`, "the kernel imports nothing from contracts"],
    ["kernel/loader.ts", `const p = await import("../plugins/tool-read/index.js");`, "the kernel imports nothing from plugins/tool-read"],
    ["kernel/x.ts", `import "../hosts/cli.js";`, "the kernel imports nothing from hosts"],
    ["plugins/tool-write/index.ts", `import { helper } from "../tool-read/helper.js";`, "a plugin never imports another plugin; go through a contract"],
    ["plugins/tool-write/index.ts", `import type { X } from "../tool-read/index.js";`, "a plugin never imports another plugin; go through a contract"],
    ["plugins/tool-write/index.ts", `const h = require("../tool-read/helper.js");`, "a plugin never imports another plugin; go through a contract"],
    ["plugins/tool-write/index.ts", `import { Kernel } from "../../kernel/kernel.js";`, "a plugin imports only the kernel's public API (kernel/index.ts)"],
    ["plugins/tool-write/index.ts", `export { main } from "../../hosts/cli.js";`, "a plugin never imports a host"],
    ["hosts/sdk.ts", `import plugin from "../plugins/tool-read/index.js";`, "a host never imports a plugin; it loads a distribution"],
    ["contracts/ai.ts", `import { x } from "../plugins/tool-read/helper.js";`, "contracts import nothing from plugins/tool-read"],
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
