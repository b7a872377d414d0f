/**
 * `pi auth login` for the ChatGPT, Meta and Radius sign-ins as a user types it, in a real terminal
 * (tmux) against the local sign-in server: the browser sign-in shows its URL (the test plays the
 * browser), the device codes show their code, and each ends with pi 1.6's "Logged in to ..." line and
 * the entry in auth.json.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OAuthTestServer } from "../support/oauth-server.js";
import { agentHome, type AgentHome } from "./agent-home.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

describe.skipIf(!HAS_TMUX)("pi auth login in a terminal: openai, meta, radius", () => {
  let tmux: TmuxServer;
  let server: OAuthTestServer;
  let user: AgentHome;

  beforeAll(() => {
    tmux = new TmuxServer();
  });
  afterAll(() => tmux.close());
  beforeEach(async () => {
    server = await new OAuthTestServer().start();
    user = agentHome();
  });
  afterEach(async () => {
    tmux.killPanes();
    await server.close();
  });

  const login = (args: string[]) =>
    tmux.start({
      cwd: user.project,
      args: ["auth", "login", ...args],
      // Wide enough that a sign-in URL is one line.
      width: 900,
      height: 20,
      env: {
        ...user.env,
        PI_OAUTH_OPENAI_AUTH_URL: server.url,
        PI_OAUTH_CALLBACK_PORT: "0",
        PI_OAUTH_META_URL: server.url,
        PI_OAUTH_META_API_URL: server.url,
        PI_RADIUS_GATEWAY: server.url,
      },
    });
  const stored = () => JSON.parse(readFileSync(join(user.agent, "auth.json"), "utf8"));
  const savedTo = () => `Credentials saved to ${join(user.agent, "auth.json")}`;

  it("openai: Sign in with ChatGPT through the browser", async () => {
    const pane = login(["openai"]);
    const screen = await pane.waitFor(/https?:\/\/\S+\/api\/accounts\/authorize\S*/);
    const url = /https?:\/\/\S+\/api\/accounts\/authorize\S*/.exec(screen)![0];
    const redirect = await fetch(url, { redirect: "manual" });
    expect((await fetch(redirect.headers.get("location")!)).status).toBe(200);
    await pane.waitFor(`Logged in to OpenAI (ChatGPT subscription). ${savedTo()}`);
    await pane.waitFor("[pi exited 0]");
    expect(stored().openai).toMatchObject({ type: "oauth", clientId: server.chatgptClientId });
  });

  it("meta: device code, then the minted key", async () => {
    const pane = login(["meta"]);
    await pane.waitFor(`Open ${server.url}/meta/device and enter code: META-2468`);
    await pane.waitFor(`Logged in to Meta (Muse subscription). ${savedTo()}`);
    await pane.waitFor("[pi exited 0]");
    expect(stored().meta).toMatchObject({ type: "oauth", access: expect.stringMatching(/^meta-key-/) });
  });

  it("radius --no-browser: the device code on the gateway", async () => {
    const pane = login(["radius", "--no-browser"]);
    await pane.waitFor("Sign in to Radius: Sign in with device code");
    await pane.waitFor(`Open ${server.url}/radius/device and enter code: RAD-1357`);
    await pane.waitFor("Loaded 1 Radius model");
    await pane.waitFor(`Logged in to Radius. ${savedTo()}`);
    await pane.waitFor("[pi exited 0]");
    expect(stored().radius).toMatchObject({ type: "oauth", scope: "gateway offline_access" });
    // The account's models, from the gateway, are now in the catalog.
    const list = await user.pi(["--list-models", "--provider", "radius"]);
    expect(list.stdout).toMatch(/^radius\s+balanced\s+200K\s+32K\s+yes\s+no\s+auth\.json$/m);
  });
});
