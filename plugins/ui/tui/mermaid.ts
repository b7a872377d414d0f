/**
 * pi 1.6.0's `markdown.mermaid` ("off", "final", "streaming"; default "streaming"): a fenced `mermaid`
 * block in a user message, an answer or a summary is drawn as a Unicode box diagram with the same
 * renderer pi uses (lovely-mermaid), its frame in `borderMuted`, labels in `text`, connectors and title in
 * `accent`, link labels as OSC 8 links where the terminal takes them. A diagram wider than the room, or
 * one the renderer cannot draw, stays the code block; once the answer is complete, a diagram with parse
 * warnings stays the code block with pi's "Mermaid diagram not rendered: …" line under it. "final" waits
 * for the answer to finish; "off" never draws. The renderer loads on the first diagram only.
 */
import { createRequire } from "node:module";
import { hyperlink, hyperlinksOn } from "./hyperlinks.js";
import type { Theme } from "./theme.js";

type Art = {
  width: number;
  warnings: string[];
  styled: Array<Array<{ text: string; role: string; href?: string }>>;
};
type Renderer = { render(src: string): Art | null };

let mode: "off" | "final" | "streaming" = "streaming";
let renderer: Renderer | null | undefined;

/** Sets `markdown.mermaid` from the settings read at start (anything else keeps pi's default). */
export function setMermaidMode(settingsMarkdown: unknown): void {
  const value = (settingsMarkdown as { mermaid?: unknown } | undefined)?.mermaid;
  mode = value === "off" || value === "final" ? value : "streaming";
}

/** The mode in force (part of the render cache key). */
export function mermaidMode(): string {
  return mode;
}

/** Whether a `mermaid` block of a message still streaming (or not) is drawn now. */
export function drawsMermaid(streaming: boolean): boolean {
  return mode === "streaming" || (mode === "final" && !streaming);
}

function load(): Renderer | null {
  if (renderer === undefined) {
    try {
      // lovely-mermaid is ESM; require() of ESM works on Node 20.19+/22 and keeps rendering synchronous.
      renderer = createRequire(import.meta.url)("lovely-mermaid") as Renderer;
    } catch {
      renderer = null;
    }
  }
  return renderer;
}

/**
 * The rows of a diagram for `source`, or undefined when the code block should show instead. `warning`
 * is set when pi shows the block with its warning line (a complete message whose diagram had problems).
 */
export function mermaidRows(
  source: string,
  width: number,
  theme: Theme,
  streaming: boolean,
): { rows?: string[]; warning?: string } {
  const art = load()?.render(source) ?? null;
  if (art === null || art.width > width) return {};
  if (!streaming && art.warnings.length > 0) {
    const more = art.warnings.length > 1 ? ` (+${art.warnings.length - 1} more)` : "";
    return { warning: theme.fg("warning", `Mermaid diagram not rendered: ${art.warnings[0]}${more}`) };
  }
  const token = (role: string): "borderMuted" | "accent" | "text" =>
    role === "border" ? "borderMuted" : role === "edge" || role === "title" ? "accent" : "text";
  const links = hyperlinksOn();
  return {
    rows: art.styled.map((row) =>
      row
        .map((span) => {
          if (span.role === "none") return span.text;
          const styled = theme.fg(token(span.role), span.role === "title" ? theme.bold(span.text) : span.text);
          return links && span.href !== undefined && span.role === "text" ? hyperlink(styled, span.href) : styled;
        })
        .join(""),
    ),
  };
}
