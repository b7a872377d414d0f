/**
 * `pi -p --remote user@127.0.0.1:port:/folder` end to end: the built pi, a local mock model server that
 * drives tool calls, and a throwaway sshd. The model's write, bash and read act on the remote folder;
 * the local project stays untouched; the session file (local) holds no key material. A bad `--remote`
 * is a usage error. Skips with the reason when /usr/sbin/sshd is absent.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { startSshd, sshdMissing, type TestSshd } from "../plugins/tools-remote/sshd.js";
import { tempFolder } from "../plugins/tools-remote/harness.js";
import { agentHome, completionsText, completionsToolCall, messageRoles } from "./agent-home.js";
import { runPiRecordingModules } from "./record-modules.js";

const loadsSsh2 = (modules: string[]): boolean => modules.some((url) => url.includes("/node_modules/ssh2/"));

const missing = sshdMissing();
if (missing !== undefined) console.log(`skipping pi --remote end to end: ${missing}`);

describe("pi --remote", () => {
  it("refuses a target it cannot read with a usage error (exit 2) and one line", async () => {
    const user = agentHome();
    const run = await user.pi(["-p", "--remote", "alice@host:relative/path", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--remote "alice@host:relative/path": the folder must be absolute');
  });
});

describe.skipIf(missing !== undefined)("pi -p --remote over SSH with a mock model", () => {
  let server: MockLlmServer;
  let sshd: TestSshd;
  beforeAll(async () => {
    server = await new MockLlmServer().start();
    sshd = await startSshd();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await sshd?.stop();
  });

  it("the model's write, bash and read act on the remote folder; the local project stays untouched", async () => {
    const user = agentHome();
    user.useMockServer(`${server.url}/v1`);
    const remoteFolder = tempFolder("pi-remote-e2e-");
    writeFileSync(join(remoteFolder, "existing.txt"), "already on the remote side\n");
    server.enqueue(
      { sse: completionsToolCall("call_w1", "write", { path: "made-remotely.txt", content: "hello remote\n" }) },
      { sse: completionsToolCall("call_b1", "bash", { command: "pwd; cat made-remotely.txt" }) },
      { sse: completionsToolCall("call_r1", "read", { path: "existing.txt" }) },
      { sse: completionsText("Done on the remote machine.") },
    );
    const run = await user.pi(
      [
        "-p",
        "--model",
        "mock/mock-1",
        "--remote",
        `${sshd.user}@127.0.0.1:${sshd.port}:${remoteFolder}`,
        "work remotely",
      ],
      { env: { PI_REMOTE_KNOWN_HOSTS: sshd.knownHosts, PI_REMOTE_IDENTITY: sshd.identity, SSH_AUTH_SOCK: "" } },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Done on the remote machine.\n");

    // The system prompt names the remote folder as the working folder, not the local project.
    const system = JSON.stringify(server.requests[0]!.body.messages[0].content);
    expect(system).toContain(
      `Current working directory: ${remoteFolder} (on ${sshd.user}@127.0.0.1:${sshd.port}, where every tool acts)`,
    );
    expect(system).not.toContain(user.project);
    // The seven tools are offered under their usual names.
    const names = (server.requests[0]!.body.tools ?? []).map((t: any) => t.function.name).sort();
    expect(names).toEqual(["bash", "edit", "find", "grep", "ls", "read", "write"]);
    expect(readFileSync(join(remoteFolder, "made-remotely.txt"), "utf-8")).toBe("hello remote\n");
    expect(readdirSync(user.project)).toEqual([]);
    const toolText = (index: number) => JSON.stringify(server.requests[index]!.body.messages.at(-1).content);
    expect(toolText(1)).toContain("Successfully wrote 13 bytes to made-remotely.txt");
    expect(toolText(2)).toContain(`${remoteFolder}\\nhello remote`);
    expect(toolText(3)).toContain("already on the remote side");

    const session = user.sessionFiles()[0]!;
    expect(messageRoles(session)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
      "toolResult",
      "assistant",
      "toolResult",
      "assistant",
    ]);
    const stored = readFileSync(session, "utf-8");
    expect(stored).not.toContain("PRIVATE KEY");
    expect(stored).not.toContain(readFileSync(sshd.identity, "utf-8").split("\n")[1]!);
  });

  it("a distribution with the local tools off and the target in tools-remote's config works without --remote", async () => {
    const user = agentHome();
    user.useMockServer(`${server.url}/v1`);
    const remoteFolder = tempFolder("pi-remote-e2e-dist-");
    writeFileSync(join(remoteFolder, "only-there.txt"), "x\n");
    const local = ["tool-read", "tool-bash", "tool-edit", "tool-write", "tool-grep", "tool-find", "tool-ls"];
    const overlay = join(user.project, "..", "remote.json");
    writeFileSync(
      overlay,
      JSON.stringify({
        plugins: [
          ...local.map((id) => ({ id, enabled: false })),
          {
            id: "tools-remote",
            config: {
              target: `${sshd.user}@127.0.0.1:${sshd.port}:${remoteFolder}`,
              knownHostsFile: sshd.knownHosts,
              identityFile: sshd.identity,
            },
          },
        ],
      }),
    );
    server.requests.length = 0;
    server.enqueue({ sse: completionsToolCall("call_l3", "ls", {}) }, { sse: completionsText("listed") });
    const run = await user.pi(["-p", "--model", "mock/mock-1", "--distribution", overlay, "list"], {
      env: { SSH_AUTH_SOCK: "" },
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("listed\n");
    const names = (server.requests[0]!.body.tools ?? []).map((t: any) => t.function.name).sort();
    expect(names).toEqual(["bash", "edit", "find", "grep", "ls", "read", "write"]);
    expect(JSON.stringify(server.requests[1]!.body.messages.at(-1).content)).toContain("only-there.txt");
  });

  it("ssh2 is loaded only by a run whose tools go remote", async () => {
    const user = agentHome();
    user.useMockServer(`${server.url}/v1`);
    server.enqueue({ sse: completionsText("local") });
    const plain = await runPiRecordingModules(
      ["-p", "--no-session", "--model", "mock/mock-1", "hi"],
      user.project,
      user.env,
    );
    expect(plain.run.stdout).toBe("local\n");
    expect(loadsSsh2(plain.modules)).toBe(false);
    server.enqueue({ sse: completionsToolCall("call_l2", "ls", {}) }, { sse: completionsText("remote") });
    const remote = await runPiRecordingModules(
      ["-p", "--no-session", "--model", "mock/mock-1", "--remote", `${sshd.user}@127.0.0.1:${sshd.port}:/tmp`, "hi"],
      user.project,
      { ...user.env, PI_REMOTE_KNOWN_HOSTS: sshd.knownHosts, PI_REMOTE_IDENTITY: sshd.identity, SSH_AUTH_SOCK: "" },
    );
    expect(remote.run.stdout).toBe("remote\n");
    expect(loadsSsh2(remote.modules)).toBe(true);
  });

  it("an unknown host key stops the tool call with the one-line refusal, and pi still answers", async () => {
    const user = agentHome();
    user.useMockServer(`${server.url}/v1`);
    const empty = join(tempFolder("pi-remote-e2e-kh-"), "known_hosts");
    writeFileSync(empty, "");
    server.requests.length = 0;
    server.enqueue({ sse: completionsToolCall("call_l1", "ls", {}) }, { sse: completionsText("Could not reach it.") });
    const run = await user.pi(
      ["-p", "--model", "mock/mock-1", "--remote", `${sshd.user}@127.0.0.1:${sshd.port}:/tmp`, "list"],
      { env: { PI_REMOTE_KNOWN_HOSTS: empty, PI_REMOTE_IDENTITY: sshd.identity, SSH_AUTH_SOCK: "" } },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Could not reach it.\n");
    expect(JSON.stringify(server.requests[1]!.body.messages.at(-1).content)).toContain(
      `The host key of [127.0.0.1]:${sshd.port} (ssh-ed25519) is not in ${empty}; refusing to connect.`,
    );
  });
});
