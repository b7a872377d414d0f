import { describe, expect, it } from "vitest";
import { Type } from "@sinclair/typebox";
import { defineContract, definePlugin, inject, PluginTokens } from "../../kernel/index.js";
import { Kernel } from "../schema-kernel.js";

interface Greeter {
  greet(name: string): string;
}
const GreeterC = defineContract<Greeter>({
  id: "test/greeter",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { greet: "function" },
  methods: { greet: "sync" },
});

class ClassGreeter implements Greeter {
  constructor(@inject(PluginTokens.Config) private readonly config: { prefix: string }) {}
  greet(name: string) {
    return `${this.config.prefix} ${name}`;
  }
}

describe("smoke", () => {
  it("boots a class provider with DI and calls it through a handle", async () => {
    const kernel = new Kernel();
    const plugin = definePlugin({
      id: "greeter",
      version: "1.0.0",
      provides: [GreeterC],
      config: Type.Object({ prefix: Type.String({ default: "hi" }) }),
      setup(ctx) {
        ctx.provide(GreeterC, ClassGreeter);
      },
    });
    const r = await kernel.boot([{ id: "greeter", source: { kind: "inline", label: "g", definition: plugin } }]);
    expect(r.errors).toEqual([]);
    expect(kernel.use(GreeterC).call("greet", "bob")).toBe("hi bob");
    console.log(JSON.stringify(kernel.describe()));
  });
});
