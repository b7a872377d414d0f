import { afterEach, describe, expect, it } from "vitest";
import { activeUi, UiContract, type UserInterface } from "../../../contracts/ui.js";
import { definePlugin, type ManyHandle } from "../../../kernel/index.js";
import { startRpc, type RpcHarness } from "./rpc-harness.js";

let harness: RpcHarness | undefined;
afterEach(async () => {
  harness?.endInput();
  await harness?.exit;
  await harness?.kernel.shutdown();
  harness = undefined;
});

/** A plugin that reaches the user only through the ui contract, as the pi-extensions plugin will. */
function uiUser(): { plugin: ReturnType<typeof definePlugin>; ui: () => UserInterface } {
  let providers: ManyHandle<UserInterface> | undefined;
  const plugin = definePlugin({
    id: "test-ui-user",
    version: "1.0.0",
    requires: [{ contract: UiContract, optional: true }],
    setup(ctx) {
      providers = ctx.useAll(UiContract);
    },
  });
  return { plugin, ui: () => activeUi(providers!) };
}

async function start(): Promise<{ h: RpcHarness; ui: () => UserInterface }> {
  const user = uiUser();
  const h = (harness = await startRpc({ extra: [user.plugin] }));
  return { h, ui: user.ui };
}

const uiRequest = (method: string) => (r: Record<string, any>) =>
  r.type === "extension_ui_request" && r.method === method;

describe("extension UI sub-protocol", () => {
  it("confirm: a request line goes out, the client's response resolves the call", async () => {
    const { h, ui } = await start();
    expect(ui().hasUI()).toBe(true);
    const answer = ui().confirm("Clear session?", "All messages will be lost.");
    const request = await h.client.next(uiRequest("confirm"));
    expect(request).toEqual({
      type: "extension_ui_request",
      id: expect.any(String),
      method: "confirm",
      title: "Clear session?",
      message: "All messages will be lost.",
    });
    h.client.send({ type: "extension_ui_response", id: request.id, confirmed: true });
    expect(await answer).toBe(true);
  });

  it("select, input and editor resolve with the value; a cancelled dialog gives its default", async () => {
    const { h, ui } = await start();
    const picked = ui().select("Allow dangerous command?", ["Allow", "Block"]);
    const select = await h.client.next(uiRequest("select"));
    expect(select).toMatchObject({ title: "Allow dangerous command?", options: ["Allow", "Block"] });
    h.client.send({ type: "extension_ui_response", id: select.id, value: "Block" });
    expect(await picked).toBe("Block");

    const typed = ui().input("Enter a value", "type something...");
    const input = await h.client.next(uiRequest("input"));
    expect(input).toMatchObject({ title: "Enter a value", placeholder: "type something..." });
    h.client.send({ type: "extension_ui_response", id: input.id, cancelled: true });
    expect(await typed).toBeUndefined();

    const edited = ui().editor("Edit some text", "Line 1\nLine 2");
    const editor = await h.client.next(uiRequest("editor"));
    expect(editor).toMatchObject({ title: "Edit some text", prefill: "Line 1\nLine 2" });
    h.client.send({ type: "extension_ui_response", id: editor.id, value: "Line 1\nchanged\u2028too" });
    expect(await edited).toBe("Line 1\nchanged\u2028too");

    const refused = ui().confirm("Sure?", "Really?");
    const confirm = await h.client.next(uiRequest("confirm"));
    h.client.send({ type: "extension_ui_response", id: confirm.id, cancelled: true });
    expect(await refused).toBe(false);
  });

  it("a dialog with a timeout sends the timeout and takes its default when nobody answers; a late answer is ignored", async () => {
    const { h, ui } = await start();
    const confirmed = ui().confirm("Proceed?", "No answer will come", { timeout: 5 });
    const request = await h.client.next(uiRequest("confirm"));
    expect(request.timeout).toBe(5);
    expect(await confirmed).toBe(false);
    expect(await ui().select("Pick", ["a", "b"], { timeout: 5 })).toBeUndefined();
    // The late answer finds no dialog: nothing is written for it, and the protocol goes on.
    const from = h.client.count;
    h.client.send({ type: "extension_ui_response", id: request.id, confirmed: true });
    const state = await h.client.request({ type: "get_state" });
    expect(h.client.records.slice(from)).toEqual([state]);
  });

  it("an aborted signal dismisses a dialog with its default", async () => {
    const { h, ui } = await start();
    const controller = new AbortController();
    const typed = ui().input("Name?", undefined, { signal: controller.signal });
    await h.client.next(uiRequest("input"));
    controller.abort();
    expect(await typed).toBeUndefined();
  });

  it("fire-and-forget methods write pi's request shapes and expect no answer", async () => {
    const { h, ui } = await start();
    const from = h.client.count;
    ui().notify("Command blocked by user", "warning");
    ui().setStatus("my-ext", "Turn 3 running...");
    ui().setStatus("my-ext", undefined);
    ui().setWidget("my-ext", ["--- My Widget ---", "Line 1"], { placement: "belowEditor" });
    ui().setTitle("pi - my project");
    ui().setEditorText("prefilled text");
    const last = await h.client.next(uiRequest("set_editor_text"), from);
    const requests = h.client.records.slice(from, h.client.records.indexOf(last) + 1);
    for (const r of requests) expect(r).toMatchObject({ type: "extension_ui_request", id: expect.any(String) });
    expect(requests.map(({ id: _id, type: _type, ...rest }) => rest)).toEqual([
      { method: "notify", message: "Command blocked by user", notifyType: "warning" },
      { method: "setStatus", statusKey: "my-ext", statusText: "Turn 3 running..." },
      { method: "setStatus", statusKey: "my-ext" },
      {
        method: "setWidget",
        widgetKey: "my-ext",
        widgetLines: ["--- My Widget ---", "Line 1"],
        widgetPlacement: "belowEditor",
      },
      { method: "setTitle", title: "pi - my project" },
      { method: "set_editor_text", text: "prefilled text" },
    ]);
    expect(new Set(requests.map((r) => r.id)).size).toBe(requests.length);
  });

  it("when stdin ends, an open dialog takes its default and the run exits 0; afterwards there is no UI", async () => {
    const { h, ui } = await start();
    const pending = ui().confirm("Still there?", "Nobody will answer");
    await h.client.next(uiRequest("confirm"));
    h.endInput();
    expect(await pending).toBe(false);
    expect(await h.exit).toBe(0);
    expect(ui().hasUI()).toBe(false);
    // With no mode running, dialogs answer their default at once and nothing is written.
    const count = h.client.count;
    expect(await ui().confirm("Anyone?", "no")).toBe(false);
    expect(await ui().select("Pick", ["x"])).toBeUndefined();
    ui().notify("lost");
    expect(h.client.count).toBe(count);
  });
});
