/**
 * The host key check: known_hosts lines plain, hashed, `[host]:port`, patterns, negations, @revoked; and
 * against a real sshd, an unknown or changed key refused with the one line saying what to do, a hashed
 * entry accepted, a missing key refused without any password prompt.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkHostKey, knownHostName } from "../../../plugins/tools/tools-remote/known-hosts.js";
import { bootRemote, sshConfig, tempFolder, textOf } from "./harness.js";
import { startSshd, sshdMissing, type TestSshd } from "./sshd.js";

/** A made-up ed25519 public key blob (type string + 32 bytes), base64, and its Buffer. */
function fakeKey(fill: number): { base64: string; blob: Buffer } {
  const type = Buffer.from("ssh-ed25519");
  const length = Buffer.alloc(4);
  length.writeUInt32BE(type.length);
  const keyLength = Buffer.alloc(4);
  keyLength.writeUInt32BE(32);
  const blob = Buffer.concat([length, type, keyLength, Buffer.alloc(32, fill)]);
  return { base64: blob.toString("base64"), blob };
}

describe("known_hosts matching", () => {
  const key = fakeKey(1);
  const other = fakeKey(2);

  it("names a non-22 port as [host]:port", () => {
    expect(knownHostName("example.org", 22)).toBe("example.org");
    expect(knownHostName("127.0.0.1", 2222)).toBe("[127.0.0.1]:2222");
  });

  it("accepts a listed key (plain, in a comma list, by pattern) and refuses an unknown host", () => {
    expect(checkHostKey(`example.org ssh-ed25519 ${key.base64}\n`, "kh", "example.org", 22, key.blob).ok).toBe(true);
    expect(checkHostKey(`a,example.org ssh-ed25519 ${key.base64}`, "kh", "example.org", 22, key.blob).ok).toBe(true);
    expect(checkHostKey(`*.org ssh-ed25519 ${key.base64}`, "kh", "example.org", 22, key.blob).ok).toBe(true);
    expect(checkHostKey(`*.org,!example.org ssh-ed25519 ${key.base64}`, "kh", "example.org", 22, key.blob).ok).toBe(
      false,
    );
    // The port matters: a key for port 22 does not vouch for port 2222.
    const verdict = checkHostKey(`example.org ssh-ed25519 ${key.base64}`, "kh", "example.org", 2222, key.blob);
    expect(verdict).toMatchObject({ ok: false, reason: "unknown" });
    expect(!verdict.ok && verdict.message).toBe(
      "The host key of [example.org]:2222 (ssh-ed25519) is not in kh; refusing to connect. Check it and add it (ssh-keyscan -p 2222 example.org >> kh, or connect once with ssh), then run again.",
    );
  });

  it("refuses a changed key and a revoked one; skips @cert-authority lines and comments", () => {
    const changed = checkHostKey(`# c\nexample.org ssh-ed25519 ${other.base64}`, "kh", "example.org", 22, key.blob);
    expect(changed).toMatchObject({ ok: false, reason: "changed" });
    expect(!changed.ok && changed.message).toContain(
      'line 2); refusing to connect. If the change is expected, remove the old entry (ssh-keygen -R "example.org" -f kh)',
    );
    const revoked = `example.org ssh-ed25519 ${key.base64}\n@revoked example.org ssh-ed25519 ${key.base64}`;
    expect(checkHostKey(revoked, "kh", "example.org", 22, key.blob)).toMatchObject({ ok: false, reason: "revoked" });
    expect(
      checkHostKey(`@cert-authority example.org ssh-ed25519 ${key.base64}`, "kh", "example.org", 22, key.blob),
    ).toMatchObject({
      ok: false,
      reason: "unknown",
    });
  });
});

const missing = sshdMissing();
if (missing !== undefined) console.log(`skipping the host key tests against sshd: ${missing}`);

describe.skipIf(missing !== undefined)("host keys against a real sshd", () => {
  let sshd: TestSshd;
  let folder: string;
  beforeAll(async () => {
    sshd = await startSshd();
    folder = tempFolder("pi-remote-keys-");
    writeFileSync(join(folder, "f.txt"), "hi\n");
  }, 60_000);
  afterAll(async () => {
    await sshd?.stop();
  });

  async function readWith(knownHosts: string, extra: Record<string, unknown> = {}): Promise<string> {
    const tools = await bootRemote(sshConfig(sshd, folder, { knownHostsFile: knownHosts, ...extra }));
    try {
      return textOf(await tools.call("read", { path: "f.txt" }));
    } catch (error) {
      return `threw: ${(error as Error).message}`;
    } finally {
      await tools.kernel.shutdown();
    }
  }

  it("an unknown host key is refused with one line naming ssh-keyscan", async () => {
    const empty = join(tempFolder("pi-kh-"), "known_hosts");
    writeFileSync(empty, "");
    const answer = await readWith(empty);
    expect(answer).toBe(
      `threw: The host key of [127.0.0.1]:${sshd.port} (ssh-ed25519) is not in ${empty}; refusing to connect. Check it and add it (ssh-keyscan -p ${sshd.port} 127.0.0.1 >> ${empty}, or connect once with ssh), then run again.`,
    );
    expect(answer.split("\n")).toHaveLength(1);
  });

  it("a changed host key is refused", async () => {
    const other = join(tempFolder("pi-kh-"), "other");
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", other], { stdio: "ignore" });
    const knownHosts = join(tempFolder("pi-kh-"), "known_hosts");
    writeFileSync(knownHosts, `[127.0.0.1]:${sshd.port} ${readFileSync(`${other}.pub`, "utf-8")}`);
    expect(await readWith(knownHosts)).toMatch(
      /^threw: The host key of \[127\.0\.0\.1\]:\d+ has CHANGED .* refusing to connect\./,
    );
  });

  it("a hashed known_hosts entry is accepted", async () => {
    const knownHosts = join(tempFolder("pi-kh-"), "known_hosts");
    writeFileSync(knownHosts, readFileSync(sshd.knownHosts));
    execFileSync("ssh-keygen", ["-H", "-f", knownHosts], { stdio: "ignore" });
    expect(readFileSync(knownHosts, "utf-8")).toMatch(/^\|1\|/);
    expect(await readWith(knownHosts)).toBe("hi\n");
  });

  it("without a usable key the connection is refused with one line, and no password is asked", async () => {
    const answer = await readWith(sshd.knownHosts, { identityFile: join(folder, "no-such-key") });
    expect(answer).toMatch(/^threw: (No SSH key for|SSH authentication to) .*passwords are never asked\.?\)?$/);
  });

  it("a missing remote folder is named in one line", async () => {
    const tools = await bootRemote({
      ...sshConfig(sshd, folder),
      target: `${sshd.user}@127.0.0.1:${sshd.port}:/no/such/folder`,
    });
    await expect(tools.call("ls", {})).rejects.toThrow(
      `The remote folder /no/such/folder does not exist on ${sshd.user}@127.0.0.1:${sshd.port}; create it or name another one.`,
    );
    await tools.kernel.shutdown();
  });
});
