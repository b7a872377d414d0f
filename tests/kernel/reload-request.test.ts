import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as api from "../../hosts/api.js";
import { RELOAD_REQUEST, reloadOnRequest } from "../../hosts/watch.js";
import { hashSource } from "../../hosts/source-policy.js";
import type { OperationResult } from "../../kernel/index.js";
import { Kernel } from "../../hosts/host-kernel.js";

const source = (marker: string): string => `import { defineContract, definePlugin } from "pi-host";
const Marker = defineContract<{ get(): string }>({ id: "test/reload-marker", version: "1.0.0", kind: "single", gate: "overlap" });
export default definePlugin({ id: "edited", version: "1.0.0", provides: [Marker], setup: (ctx) => ctx.provide(Marker, { get: () => ${JSON.stringify(marker)} }) });
`;
const Marker = api.defineContract<{ get(): string }>({
  id: "test/reload-marker",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  methods: { get: "sync" },
});

describe("/reload (host:reload-request)", () => {
  it("reloads plugins loaded from source: an edit takes effect, an unchanged file is a no-op", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-reload-req-"));
    mkdirSync(join(dir, "edited"));
    const file = join(dir, "edited", "index.ts");
    writeFileSync(file, source("v1"));
    const kernel = new Kernel({ hashSource, virtualModules: { "pi-host": api } });
    await kernel.boot([{ id: "edited", source: { kind: "file", path: file } }]);
    const results: OperationResult[] = [];
    let settle!: () => void;
    let settled = new Promise<void>((resolve) => (settle = resolve));
    const stop = reloadOnRequest(kernel, (r) => (results.push(r), settle()));

    kernel.emit(RELOAD_REQUEST);
    await settled;
    expect(results.at(-1)).toMatchObject({ pluginId: "edited", status: "noop" });

    writeFileSync(file, source("v2"));
    settled = new Promise<void>((resolve) => (settle = resolve));
    kernel.emit(RELOAD_REQUEST);
    await settled;
    expect(results.at(-1)).toMatchObject({ pluginId: "edited", status: "committed" });
    expect(kernel.use(Marker).call("get")).toBe("v2");
    stop();
    await kernel.shutdown();
  });
});
