/**
 * The only way this store adds to a session file. The descriptor is opened with O_APPEND ("a"), and each
 * call hands the kernel one buffer holding whole lines in one write, so every write lands at the end of
 * the file even when another process appends too, and lines never interleave or end half-written by us.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** An append-only session file; the descriptor opens on the first write and stays open until `close`. */
export class AppendFile {
  private fd: number | undefined = undefined;

  constructor(readonly path: string) {}

  /** Appends whole lines (each must end with "\n") in a single write call. */
  append(text: string): void {
    const buffer = Buffer.from(text, "utf8");
    const fd = this.open();
    let written = writeSync(fd, buffer, 0, buffer.length);
    // A regular file takes the whole buffer in one call; only a full disk or a signal splits it, and
    // then the rest still belongs at the end rather than lost.
    while (written < buffer.length) written += writeSync(fd, buffer, written, buffer.length - written);
  }

  /** Closes the descriptor; a later append reopens it. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }

  private open(): number {
    if (this.fd === undefined) {
      mkdirSync(dirname(this.path), { recursive: true });
      this.fd = openSync(this.path, "a");
    }
    return this.fd;
  }
}
