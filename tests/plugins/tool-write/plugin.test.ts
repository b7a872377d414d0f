import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Kind } from "@sinclair/typebox";
import { createFileLocks, ToolContract } from "../../../contracts/tool.js";
import { Kernel } from "../../schema-kernel.js";
import writePlugin from "../../../plugins/tools/tool-write/index.js";

describe("tool-write plugin", () => {
  it('boots in a kernel and provides the write tool under key "write" with a TypeBox object schema', async () => {
    const kernel = new Kernel();
    try {
      const boot = await kernel.boot([
        { id: "tool-write", source: { kind: "inline", label: "tool-write", definition: writePlugin } },
      ]);
      expect(boot.errors).toEqual([]);
      const handles = kernel.useAll(ToolContract).list();
      expect(handles.map((handle) => handle.key)).toEqual(["tool-write#write"]);
      const tool = handles[0]!.peek()!;
      expect(tool.name).toBe("write");
      expect(tool.parameters[Kind]).toBe("Object");
      expect(tool.parameters.required).toEqual(["path", "content"]);

      const dir = mkdtempSync(join(tmpdir(), "pi-tool-write-"));
      await handles[0]!.call("execute", "id-1", { path: "x.txt", content: "via handle" }, undefined, undefined, {
        cwd: dir,
        withFileLock: createFileLocks(),
      });
      expect(readFileSync(join(dir, "x.txt"), "utf-8")).toBe("via handle");
    } finally {
      await kernel.shutdown();
    }
  });
});
