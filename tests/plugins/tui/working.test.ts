/** The working row as other plugins change it (pi's setWorkingMessage / Visible / Indicator). */
import { describe, expect, it } from "vitest";
import { initialViewState } from "../../../plugins/ui/tui/state.js";
import { stripSgr } from "../../../plugins/ui/tui/text.js";
import { loadTheme } from "../../../plugins/ui/tui/theme.js";
import { workingRows } from "../../../plugins/ui/tui/working.js";

const theme = loadTheme("dark", "/nonexistent-agent-dir");

describe("workingRows", () => {
  it("the view's own row, a message, frames by the clock, no indicator, hidden", () => {
    const s = initialViewState();
    s.busy = true;
    expect(workingRows(s, theme, 80).map(stripSgr)).toEqual([" ● Working… (esc to interrupt)"]);
    s.working = { visible: true, message: "Brewing", frames: ["a", "b", "c"], intervalMs: 100 };
    expect(workingRows(s, theme, 80, 250).map(stripSgr)).toEqual([" c Brewing (esc to interrupt)"]);
    expect(workingRows(s, theme, 80, 310).map(stripSgr)).toEqual([" a Brewing (esc to interrupt)"]);
    s.working = { visible: true, frames: [] };
    expect(workingRows(s, theme, 80).map(stripSgr)).toEqual([" Working… (esc to interrupt)"]);
    s.compacting = true;
    expect(workingRows(s, theme, 80).map(stripSgr)).toEqual([" Compacting… (esc to abort)"]);
    s.working = { visible: false };
    expect(workingRows(s, theme, 80)).toEqual([]);
  });
});
