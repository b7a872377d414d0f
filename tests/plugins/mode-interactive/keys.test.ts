import { describe, expect, it } from "vitest";
import { KeyDecoder } from "../../../plugins/modes/mode-interactive/keys.js";

const decode = (...chunks: string[]) => {
  const decoder = new KeyDecoder();
  return chunks
    .flatMap((c) => decoder.feed(c))
    .map(
      (k) =>
        `${k.ctrl ? "C-" : ""}${k.alt ? "M-" : ""}${k.shift ? "S-" : ""}${k.name}${k.text !== undefined ? `:${k.text}` : ""}`,
    );
};

describe("key decoder", () => {
  it("reads a run of printable characters (with wide ones) as one text key", () => {
    expect(decode("héllo 中文👍")).toEqual(["text:héllo 中文👍"]);
  });

  it("reads control keys: Enter, Ctrl+J, Tab, Backspace, Ctrl+C, Ctrl+P, Ctrl+K, Ctrl+Y, Ctrl+- and Ctrl+Z", () => {
    expect(decode("\r\n\t\x7f\x03\x10\x0b\x19\x1f\x1a")).toEqual([
      "enter",
      "S-enter",
      "tab",
      "backspace",
      "C-c",
      "C-p",
      "C-k",
      "C-y",
      "C--",
      "C-z",
    ]);
  });

  it("reads a lone Esc as Escape and Esc-prefixed keys as Alt", () => {
    expect(decode("\x1b")).toEqual(["escape"]);
    expect(decode("\x1b\r")).toEqual(["M-enter"]);
    expect(decode("\x1by")).toEqual(["M-y"]);
    expect(decode("\x1b\x7f")).toEqual(["M-backspace"]);
  });

  it("reads arrows, Home/End, Delete, PageUp/Down, Shift+Tab and modified arrows", () => {
    expect(decode("\x1b[A\x1b[B\x1b[C\x1b[D\x1bOH\x1b[F\x1b[3~\x1b[5~\x1b[6~\x1b[Z\x1b[1;5C\x1b[1;3D")).toEqual([
      "up",
      "down",
      "right",
      "left",
      "home",
      "end",
      "delete",
      "pageUp",
      "pageDown",
      "S-tab",
      "C-right",
      "M-left",
    ]);
  });

  it("reads CSI-u and xterm modifyOtherKeys reports (tmux extended keys)", () => {
    expect(decode("\x1b[13;2u\x1b[13;3u\x1b[99;5u\x1b[27;5;100~\x1b[112;6u")).toEqual([
      "S-enter",
      "M-enter",
      "C-c",
      "C-d",
      "C-S-p",
    ]);
  });

  it("reads a bracketed paste as one key, even split over chunks and across the end marker", () => {
    expect(decode("\x1b[200~line one\r\nline", " two\x1b[20", "1~x")).toEqual(["paste:line one\nline two", "text:x"]);
  });

  it("waits for the rest of a sequence split between chunks", () => {
    const decoder = new KeyDecoder();
    expect(decoder.feed("\x1b[1;")).toEqual([]);
    expect(decoder.hasPending).toBe(true);
    expect(decoder.feed("5D").map((k) => k.name)).toEqual(["left"]);
  });

  it("gives a sequence that never finishes back as typed when the wait ends", () => {
    const decoder = new KeyDecoder();
    decoder.feed("\x1b[");
    expect(decoder.flushPending().map((k) => `${k.name}:${k.text}`)).toEqual(["text:["]);
  });
});
