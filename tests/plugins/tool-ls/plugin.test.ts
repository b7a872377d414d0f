import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Kind } from "@sinclair/typebox";
import { createFileLocks, ToolContract } from "../../../contracts/tool.js";
import { Kernel } from "../../schema-kernel.js";
import lsPlugin from "../../../plugins/tools/tool-ls/index.js";

describe("tool-ls plugin", () => {
  it('boots in a kernel and provides the ls tool under key "ls" with a TypeBox object schema', async () => {
    const kernel = new Kernel();
    try {
      const boot = await kernel.boot([
        { id: "tool-ls", source: { kind: "inline", label: "tool-ls", definition: lsPlugin } },
      ]);
      expect(boot.errors).toEqual([]);
      const handles = kernel.useAll(ToolContract).list();
      expect(handles.map((handle) => handle.key)).toEqual(["tool-ls#ls"]);
      const tool = handles[0]!.peek()!;
      expect(tool.name).toBe("ls");
      expect(tool.parameters[Kind]).toBe("Object");
      expect(Object.keys(tool.parameters.properties)).toEqual(["path", "limit"]);
      expect(tool.parameters.required).toBeUndefined();

      const dir = mkdtempSync(join(tmpdir(), "pi-tool-ls-"));
      writeFileSync(join(dir, "only.txt"), "");
      const result = await handles[0]!.call("execute", "id-1", {}, undefined, undefined, {
        cwd: dir,
        withFileLock: createFileLocks(),
      });
      expect(result.content).toEqual([{ type: "text", text: "only.txt" }]);
    } finally {
      await kernel.shutdown();
    }
  });
});
