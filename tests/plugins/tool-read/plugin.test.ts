import { describe, expect, it } from "vitest";
import { Kind } from "@sinclair/typebox";
import { ToolContract } from "../../../contracts/tool.js";
import { Kernel } from "../../schema-kernel.js";
import readPlugin from "../../../plugins/tools/tool-read/index.js";
import { contextAt, put, tempFolder } from "./harness.js";

describe("tool-read plugin", () => {
  it('boots in a kernel and provides the read tool under key "read" with a TypeBox object schema', async () => {
    const kernel = new Kernel();
    try {
      const boot = await kernel.boot([
        { id: "tool-read", source: { kind: "inline", label: "tool-read", definition: readPlugin } },
      ]);
      expect(boot.errors).toEqual([]);
      const handles = kernel.useAll(ToolContract).list();
      expect(handles.map((handle) => handle.key)).toEqual(["tool-read#read"]);
      const tool = handles[0]!.peek()!;
      expect(tool.name).toBe("read");
      expect(tool.parameters[Kind]).toBe("Object");
      expect(Object.keys(tool.parameters.properties)).toEqual(["path", "offset", "limit"]);
      expect(tool.parameters.required).toEqual(["path"]);

      const dir = tempFolder();
      put(dir, "a.txt", "through the handle");
      const result = await handles[0]!.call("execute", "id-1", { path: "a.txt" }, undefined, undefined, contextAt(dir));
      expect(result.content).toEqual([{ type: "text", text: "through the handle" }]);
    } finally {
      await kernel.shutdown();
    }
  });
});
