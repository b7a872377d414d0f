/**
 * What `--remote` accepts (kit's parseRemoteTarget, also used by the host to refuse a bad value), and
 * which tools a run offers: the local tools step aside when the run chose `--remote`, the remote ones
 * are offered only then (or when their `target` setting names one). The docker target runs through
 * `docker exec`, skipped with the reason where no Docker engine answers.
 */
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { ToolContract } from "../../../contracts/tool.js";
import { HostEnvironmentContract } from "../../../contracts/host-environment.js";
import { definePlugin } from "../../../kernel/index.js";
import { parseRemoteTarget } from "../../../kit/remote/remote-target.js";
import readPlugin from "../../../plugins/tools/tool-read/index.js";
import remotePlugin from "../../../plugins/tools/tools-remote/index.js";
import { isToolOffered } from "../../../contracts/tool.js";
import { Kernel } from "../../schema-kernel.js";
import { bootRemote, tempFolder, textOf } from "./harness.js";

describe("--remote targets", () => {
  it("reads user@host[:port]:/path, ssh:// addresses and docker:name[:/path]", () => {
    expect(parseRemoteTarget("alice@example.org:/srv/app")).toEqual({
      kind: "ssh",
      user: "alice",
      host: "example.org",
      port: 22,
      path: "/srv/app",
    });
    expect(parseRemoteTarget("bob@10.0.0.5:2222:/home/bob/")).toEqual({
      kind: "ssh",
      user: "bob",
      host: "10.0.0.5",
      port: 2222,
      path: "/home/bob",
    });
    expect(parseRemoteTarget("example.org")).toEqual({
      kind: "ssh",
      user: undefined,
      host: "example.org",
      port: 22,
      path: undefined,
    });
    expect(parseRemoteTarget("ssh://carol@[::1]:2200/work")).toEqual({
      kind: "ssh",
      user: "carol",
      host: "::1",
      port: 2200,
      path: "/work",
    });
    expect(parseRemoteTarget("docker:web-1:/app")).toEqual({ kind: "docker", container: "web-1", path: "/app" });
    expect(parseRemoteTarget("docker:web-1")).toEqual({ kind: "docker", container: "web-1", path: undefined });
  });

  it("refuses a relative folder, a bad port, no host or no container with one line saying what to write", () => {
    expect(() => parseRemoteTarget("alice@host:relative")).toThrow("the folder must be absolute");
    expect(() => parseRemoteTarget("alice@host:70000:/x")).toThrow("the port must be 1-65535");
    expect(() => parseRemoteTarget("@:/x")).toThrow(/names no host|empty or invalid user/);
    expect(() => parseRemoteTarget("docker:")).toThrow("names no container");
    expect(() => parseRemoteTarget("")).toThrow(/^--remote needs a target: write --remote user@host/);
  });
});

/** A host environment plugin as the CLI boots it, with the given flags. */
function hostWith(remote: string | undefined) {
  return definePlugin({
    id: "host",
    version: "1.0.0",
    provides: [HostEnvironmentContract],
    setup(ctx) {
      ctx.provide(HostEnvironmentContract, {
        environment: () => ({
          cwd: "/",
          agentDir: "/",
          projectTrust: { trusted: false, source: "none-needed" },
          flags: remote === undefined ? {} : { remote },
        }),
      });
    },
  });
}

const kernels: Kernel[] = [];
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
});

async function offeredReads(remote: string | undefined): Promise<string[]> {
  const kernel = new Kernel();
  kernels.push(kernel);
  const boot = await kernel.boot([
    { id: "host", source: { kind: "inline", label: "host", definition: hostWith(remote) } },
    { id: "tool-read", source: { kind: "inline", label: "tool-read", definition: readPlugin } },
    { id: "tools-remote", source: { kind: "inline", label: "tools-remote", definition: remotePlugin } },
  ]);
  expect(boot.errors).toEqual([]);
  return kernel
    .useAll(ToolContract)
    .list()
    .filter((handle) => handle.peek()?.name === "read" && isToolOffered(handle.peek()))
    .map((handle) => handle.pluginId ?? "");
}

describe("which read a run offers", () => {
  it("the local one without --remote, the remote one with it: never both", async () => {
    expect(await offeredReads(undefined)).toEqual(["tool-read"]);
    expect(await offeredReads("alice@example.org:/srv")).toEqual(["tools-remote"]);
  });

  it("the remote tools' own target setting offers them without the flag (a remote-only distribution)", async () => {
    const tools = await bootRemote({ target: "docker:some-container" });
    kernels.push(tools.kernel);
    expect(tools.tools.get("read")?.enabled?.()).toBe(true);
    const none = await bootRemote({});
    kernels.push(none.kernel);
    expect(none.tools.get("read")?.enabled?.()).toBe(false);
  });
});

/** Why docker exec cannot be tried here, or undefined. */
function dockerMissing(): string | undefined {
  try {
    execFileSync("docker", ["info", "--format", "{{.ServerVersion}}"], { stdio: "ignore", timeout: 10_000 });
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "no docker client" : "no Docker engine answers";
  }
}

const noDocker = dockerMissing();
if (noDocker !== undefined) console.log(`skipping the docker:<container> target test: ${noDocker}`);

describe.skipIf(noDocker !== undefined)("--remote docker:<container>", () => {
  it("runs the tools inside a container through docker exec", async () => {
    const name = `pi-remote-test-${process.pid}`;
    execFileSync("docker", ["run", "-d", "--rm", "--name", name, "busybox", "sleep", "300"], { stdio: "ignore" });
    try {
      const tools = await bootRemote({ target: `docker:${name}:/tmp` });
      kernels.push(tools.kernel);
      await tools.call("write", { path: "in-container.txt", content: "inside\n" });
      expect(textOf(await tools.call("read", { path: "in-container.txt" }))).toBe("inside\n");
      expect(textOf(await tools.call("bash", { command: "pwd" })).trim()).toBe("/tmp");
      expect(tempFolder("pi-docker-local-")).toBeTruthy();
    } finally {
      execFileSync("docker", ["rm", "-f", name], { stdio: "ignore" });
    }
  });
});
