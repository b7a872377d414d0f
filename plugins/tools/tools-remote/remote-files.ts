/**
 * File operations on the remote side as small POSIX `sh` scripts: reading a regular file, replacing
 * or creating one (parents made), and listing a folder. Each answers with an exit code naming what
 * went wrong (missing, a folder, a FIFO or device, no permission), which the tools turn into the same
 * one-line errors the local tools give.
 */
import { capture, type RemoteRunner } from "./runner.js";

/** Why a remote file operation failed. */
export type RemoteFileProblem =
  | { why: "not-found" | "directory" | "permission" | "parent-is-file" }
  | { why: "not-regular"; kind: string }
  | { why: "other"; message: string };

/** Thrown by the operations below; `problem` says why. */
export class RemoteFileError extends Error {
  constructor(readonly problem: RemoteFileProblem) {
    super(problem.why === "other" ? problem.message : problem.why);
  }
}

/** Exit codes 20-24: what a non-regular file is (as the local tools word it). */
const SPECIAL_KINDS: Record<number, string> = {
  20: "a FIFO (named pipe)",
  21: "a socket",
  22: "a character device",
  23: "a block device",
  24: "not a regular file",
};

const KIND_OF = `
kind() {
  if [ -p "$1" ]; then exit 20; elif [ -S "$1" ]; then exit 21; elif [ -c "$1" ]; then exit 22;
  elif [ -b "$1" ]; then exit 23; else exit 24; fi
}`;

const READ = `${KIND_OF}
p=$1
[ -d "$p" ] && exit 11
[ -e "$p" ] || exit 10
[ -f "$p" ] || kind "$p"
[ -r "$p" ] || exit 13
exec cat -- "$p"`;

const WRITE = `${KIND_OF}
p=$1
[ -d "$p" ] && exit 11
d=$(dirname -- "$p")
if [ ! -d "$d" ]; then
  mkdir -p -- "$d" 2>/dev/null || { q=$d; while [ ! -e "$q" ]; do q=$(dirname -- "$q"); done; [ -d "$q" ] && exit 13; exit 14; }
fi
if [ -e "$p" ] && [ ! -f "$p" ]; then kind "$p"; fi
cat > "$p" 2>/dev/null || exit 13`;

const LIST = `
cd -- "$1" 2>/dev/null || { [ -e "$1" ] || exit 10; [ -d "$1" ] || exit 11; exit 13; }
for f in .* *; do
  case $f in .|..) continue ;; esac
  if [ -d "$f" ]; then printf '%s/\\0' "$f"; elif [ -e "$f" ] || [ -L "$f" ]; then printf '%s\\0' "$f"; fi
done`;

/** The bytes of the regular file at `path` (absolute, remote). */
export async function readRemoteFile(runner: RemoteRunner, path: string, signal?: AbortSignal): Promise<Buffer> {
  const result = await capture(runner, ["sh", "-c", READ, "sh", path], { signal });
  if (result.code === 0) return result.stdout;
  throw problemOf(result.code, result.stderr);
}

/** Creates or replaces the regular file at `path` (absolute, remote), making missing parent folders. */
export async function writeRemoteFile(runner: RemoteRunner, path: string, content: string | Buffer): Promise<void> {
  const result = await capture(runner, ["sh", "-c", WRITE, "sh", path], { stdin: content });
  if (result.code !== 0) throw problemOf(result.code, result.stderr);
}

/** The names in folder `path` (folders ending in "/"), unsorted. */
export async function listRemoteFolder(runner: RemoteRunner, path: string, signal?: AbortSignal): Promise<string[]> {
  const result = await capture(runner, ["sh", "-c", LIST, "sh", path], { signal });
  if (result.code !== 0) throw problemOf(result.code, result.stderr);
  return result.stdout
    .toString("utf-8")
    .split("\0")
    .filter((name) => name !== "");
}

function problemOf(code: number | null, stderr: string): RemoteFileError {
  if (code === 10) return new RemoteFileError({ why: "not-found" });
  if (code === 11) return new RemoteFileError({ why: "directory" });
  if (code === 13) return new RemoteFileError({ why: "permission" });
  if (code === 14) return new RemoteFileError({ why: "parent-is-file" });
  const kind = code === null ? undefined : SPECIAL_KINDS[code];
  if (kind !== undefined) return new RemoteFileError({ why: "not-regular", kind });
  return new RemoteFileError({ why: "other", message: stderr.trim() || `the remote command exited with ${code}` });
}
