import { describe, expect, it } from "vitest";
import { Kind } from "@sinclair/typebox";
import { createFileLocks, ToolContract } from "../../../contracts/tool.js";
import { Kernel } from "../../schema-kernel.js";
import editPlugin from "../../../plugins/tools/tool-edit/index.js";
import { contentOf, put, tempFolder } from "./harness.js";

describe("tool-edit plugin", () => {
  it('boots in a kernel and provides the edit tool under key "edit" with pi\'s TypeBox object schema', async () => {
    const kernel = new Kernel();
    try {
      const boot = await kernel.boot([
        { id: "tool-edit", source: { kind: "inline", label: "tool-edit", definition: editPlugin } },
      ]);
      expect(boot.errors).toEqual([]);
      const handles = kernel.useAll(ToolContract).list();
      expect(handles.map((handle) => handle.key)).toEqual(["tool-edit#edit"]);
      const tool = handles[0]!.peek()!;
      expect(tool.name).toBe("edit");
      expect(tool.parameters[Kind]).toBe("Object");
      expect(tool.parameters.required).toEqual(["path", "edits"]);
      expect(tool.parameters.properties.edits.items.required).toEqual(["oldText", "newText"]);
      expect(tool.prepareArguments!({ path: "f", oldText: "a", newText: "b" })).toEqual({
        path: "f",
        edits: [{ oldText: "a", newText: "b" }],
      });

      const dir = tempFolder();
      put(dir, "f.txt", "before");
      const params = { path: "f.txt", edits: [{ oldText: "before", newText: "after" }] };
      await handles[0]!.call("execute", "id-1", params, undefined, undefined, {
        cwd: dir,
        withFileLock: createFileLocks(),
      });
      expect(contentOf(dir, "f.txt")).toBe("after");
    } finally {
      await kernel.shutdown();
    }
  });
});
