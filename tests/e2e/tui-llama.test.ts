/**
 * `/llama` in the built CLI's terminal UI, in tmux, against a stand-in llama.cpp router on 127.0.0.1:
 * the list shows the router's models with their state, an unloaded one loads (after asking whether to
 * unload the loaded others), a loaded one unloads after a confirmation — as pi 1.6.0 does.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { agentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.warn("[skip] tmux is not on PATH: skipping the /llama end-to-end tests");

/** A router: a load or an unload is "loading"/"unloading" for one list call, then done. */
class MockRouter {
  readonly calls: string[] = [];
  readonly models = new Map<string, string>();
  url = "";
  private server: Server | undefined;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        this.calls.push(`${req.method} ${req.url}${body === "" ? "" : ` ${body}`}`);
        const send = (status: number, payload: unknown) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(payload));
        };
        if (req.method === "GET" && req.url === "/models") {
          const data = [...this.models].map(([id, value]) => ({ id, object: "model", status: { value } }));
          for (const [id, value] of this.models) {
            if (value === "loading") this.models.set(id, "loaded");
            if (value === "unloading") this.models.set(id, "unloaded");
          }
          return send(200, { object: "list", data });
        }
        if (req.method === "POST" && (req.url === "/models/load" || req.url === "/models/unload")) {
          const { model } = JSON.parse(body) as { model: string };
          if (!this.models.has(model)) return send(400, { error: { message: `model ${model} not found` } });
          this.models.set(model, req.url === "/models/load" ? "loading" : "unloading");
          return send(200, { success: true });
        }
        send(404, { error: { message: "not found" } });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

let router: MockRouter;
let tmux: TmuxServer | undefined;

beforeAll(async () => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  router = await new MockRouter().start();
  if (HAS_TMUX) tmux = new TmuxServer();
});
afterAll(async () => {
  tmux?.close();
  await router.close();
});
afterEach(() => tmux?.killPanes());

const start = (env: Record<string, string>) => {
  const user = agentHome();
  return tmux!.start({ cwd: user.project, env: { ...user.env, DISPLAY: "", WAYLAND_DISPLAY: "", ...env }, height: 30 });
};

describe.skipIf(!HAS_TMUX)("/llama in tmux", { timeout: 60_000 }, () => {
  it("lists the router's models, loads one (unloading the loaded other first), then unloads it", async () => {
    router.models.set("gemma-3-4b", "unloaded");
    router.models.set("qwen-1b", "loaded");
    const pane = start({ LLAMA_BASE_URL: `${router.url}/v1` });
    await pane.waitFor("no model");
    pane.type("/llam");
    await pane.waitFor("Manage llama.cpp router models");
    pane.type("a");
    pane.keys("Enter");
    await pane.waitFor(`llama.cpp router ${router.url}`);
    await pane.waitFor("gemma-3-4b  unloaded");
    await pane.waitFor("qwen-1b  loaded");
    pane.keys("Enter");
    await pane.waitFor("1 model is loaded");
    await pane.waitFor("Keep loaded and load");
    pane.keys("Enter");
    await pane.waitFor("Loaded gemma-3-4b");
    expect(router.calls).toContain('POST /models/unload {"model":"qwen-1b"}');
    expect(router.calls).toContain('POST /models/load {"model":"gemma-3-4b"}');
    expect(router.calls.indexOf('POST /models/unload {"model":"qwen-1b"}')).toBeLessThan(
      router.calls.indexOf('POST /models/load {"model":"gemma-3-4b"}'),
    );
    expect(Object.fromEntries(router.models)).toEqual({ "gemma-3-4b": "loaded", "qwen-1b": "unloaded" });
    // The list comes back with the router's new state.
    await pane.waitFor("gemma-3-4b  loaded", { all: false });
    pane.keys("Enter");
    await pane.waitFor("Unload model?");
    pane.keys("y");
    await pane.waitFor("Unloaded gemma-3-4b");
    expect(router.calls).toContain('POST /models/unload {"model":"gemma-3-4b"}');
    expect(router.models.get("gemma-3-4b")).toBe("unloaded");
    await pane.waitFor("gemma-3-4b  unloaded", { all: false });
    pane.keys("Escape");
    await pane.waitFor((screen) => !screen.includes(`llama.cpp router ${router.url}`), { all: false });
  });

  it("without a configured router it says how to configure one; an unreachable one is a clear error", async () => {
    const pane = start({ LLAMA_BASE_URL: "" });
    await pane.waitFor("no model");
    pane.type("/llama");
    pane.keys("Enter");
    await pane.waitFor("Configure llama.cpp: set LLAMA_BASE_URL");
    const closed = await new MockRouter().start();
    const url = closed.url;
    await closed.close();
    const other = start({ LLAMA_BASE_URL: url });
    await other.waitFor("no model");
    other.type("/llama");
    other.keys("Enter");
    await other.waitFor(`Could not connect to the server at ${url}.`);
  });
});
