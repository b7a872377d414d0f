/**
 * Checks a server's host key against OpenSSH's known_hosts, as `ssh` does with StrictHostKeyChecking:
 * plain and hashed (`|1|salt|hash`) host names, `[host]:port` for ports other than 22, `*`/`?`
 * patterns and `!` negations, `@revoked` keys refused, `@cert-authority` lines skipped. Anything but a
 * listed key is refused with one line saying what to do, so tools never act on an impostor.
 */
import { createHmac } from "node:crypto";

/** The verdict on one key. */
export type HostKeyVerdict = { ok: true } | { ok: false; reason: "unknown" | "changed" | "revoked"; message: string };

interface KnownHostLine {
  marker: "revoked" | "cert-authority" | undefined;
  hosts: string;
  keyType: string;
  key: Buffer;
  lineNumber: number;
}

/** The name `ssh` looks up for a host and port: `host` on 22, `[host]:port` otherwise. */
export function knownHostName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** Judges `keyBlob` (the server's public key in SSH wire form) for `host`:`port` against `knownHosts`. */
export function checkHostKey(
  knownHosts: string,
  knownHostsPath: string,
  host: string,
  port: number,
  keyBlob: Buffer,
): HostKeyVerdict {
  const name = knownHostName(host, port);
  const offeredType = keyTypeOf(keyBlob);
  const lines = parseKnownHosts(knownHosts).filter((line) => hostMatches(line.hosts, name));
  if (lines.some((line) => line.marker === "revoked" && line.key.equals(keyBlob))) {
    return {
      ok: false,
      reason: "revoked",
      message: `The host key of ${name} is marked @revoked in ${knownHostsPath}; refusing to connect.`,
    };
  }
  const plain = lines.filter((line) => line.marker === undefined);
  if (plain.some((line) => line.key.equals(keyBlob))) return { ok: true };
  const sameType = plain.find((line) => line.keyType === offeredType);
  if (sameType !== undefined) {
    return {
      ok: false,
      reason: "changed",
      message:
        `The host key of ${name} has CHANGED from the one in ${knownHostsPath} (line ${sameType.lineNumber}); refusing to connect. ` +
        `If the change is expected, remove the old entry (ssh-keygen -R "${name}" -f ${knownHostsPath}) and connect once with ssh to add the new one.`,
    };
  }
  const scan = port === 22 ? `ssh-keyscan ${host}` : `ssh-keyscan -p ${port} ${host}`;
  return {
    ok: false,
    reason: "unknown",
    message:
      `The host key of ${name} (${offeredType}) is not in ${knownHostsPath}; refusing to connect. ` +
      `Check it and add it (${scan} >> ${knownHostsPath}, or connect once with ssh), then run again.`,
  };
}

function parseKnownHosts(text: string): KnownHostLine[] {
  const out: KnownHostLine[] = [];
  text.split("\n").forEach((raw, index) => {
    const fields = raw.trim().split(/\s+/);
    if (fields[0] === undefined || fields[0] === "" || fields[0].startsWith("#")) return;
    let marker: KnownHostLine["marker"];
    if (fields[0].startsWith("@")) {
      const name = fields.shift()!.slice(1);
      if (name !== "revoked" && name !== "cert-authority") return;
      marker = name;
    }
    const [hosts, keyType, key] = fields;
    if (hosts === undefined || keyType === undefined || key === undefined) return;
    out.push({ marker, hosts, keyType, key: Buffer.from(key, "base64"), lineNumber: index + 1 });
  });
  return out;
}

/** Whether the comma-separated patterns (or one hashed name) name `name`; a matching `!` pattern wins. */
function hostMatches(patterns: string, name: string): boolean {
  if (patterns.startsWith("|1|")) return hashedMatches(patterns, name);
  let matched = false;
  for (const pattern of patterns.split(",")) {
    const negated = pattern.startsWith("!");
    if (!globMatches(negated ? pattern.slice(1) : pattern, name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

function hashedMatches(entry: string, name: string): boolean {
  const [, , salt, hash] = entry.split("|");
  if (salt === undefined || hash === undefined) return false;
  const digest = createHmac("sha1", Buffer.from(salt, "base64")).update(name).digest("base64");
  return digest === hash;
}

function globMatches(pattern: string, name: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${source}$`, "i").test(name);
}

/** The key type named at the start of an SSH public key blob (`ssh-ed25519`, `ssh-rsa`, ...). */
function keyTypeOf(blob: Buffer): string {
  if (blob.length < 4) return "unknown";
  const length = blob.readUInt32BE(0);
  return blob.subarray(4, 4 + length).toString("latin1");
}
