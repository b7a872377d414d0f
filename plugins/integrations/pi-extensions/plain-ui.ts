/**
 * pi's `ctx.ui` members for its own TUI (components, themes, the editor, working indicators) where the
 * running mode has no TUI: RPC, print and JSON. pi 1.6.0 answers them there without a terminal
 * (`modes/rpc/rpc-mode.ts` and the runner's no-UI context): `custom` resolves undefined, themes list
 * none and cannot be switched, the editor text reads empty, the rest changes nothing. Extensions check
 * those answers (`getAllThemes().length > 0`, `custom()` giving undefined) to fall back, so the same
 * answers here let them run as they do under pi. In the TUI these members are pi-host's TUI's to
 * implement (context.ts).
 */

/** Text styling that keeps the text as it is: no terminal, no colours (pi's theme API, plain). */
export const PLAIN_THEME = {
  name: "dark",
  sourcePath: undefined,
  appearance: "dark" as const,
  fg: (_color: string, text: string) => text,
  bg: (_color: string, text: string) => text,
  style: (text: string) => text,
  bold: (text: string) => text,
  italic: (text: string) => text,
  underline: (text: string) => text,
  inverse: (text: string) => text,
  strikethrough: (text: string) => text,
  getFgAnsi: () => "",
  getBgAnsi: () => "",
  getColorMode: () => "truecolor" as const,
  getThinkingBorderColor: () => (text: string) => text,
  getBashModeBorderColor: () => (text: string) => text,
};

/** The TUI-only `ctx.ui` members as pi answers them in a mode without a TUI. */
export function plainUiMembers(setEditorText: (text: string) => void, mode: "rpc" | "print" | "json") {
  return {
    onTerminalInput: () => () => {},
    setWorkingMessage: () => {},
    setWorkingVisible: () => {},
    setWorkingIndicator: () => {},
    setHiddenThinkingLabel: () => {},
    setFooter: () => {},
    setHeader: () => {},
    custom: async (): Promise<undefined> => undefined,
    pasteToEditor: (text: string) => setEditorText(text),
    getEditorText: () => "",
    addAutocompleteProvider: () => {},
    setEditorComponent: () => {},
    getEditorComponent: (): undefined => undefined,
    theme: PLAIN_THEME,
    getAllThemes: (): Array<{ name: string; path: string | undefined }> => [],
    getTheme: (): undefined => undefined,
    setTheme: () => ({
      success: false as const,
      error: mode === "rpc" ? "Theme switching not supported in RPC mode" : "UI not available",
    }),
    getToolsExpanded: () => false,
    setToolsExpanded: () => {},
  };
}

/** The names `plainUiMembers` answers. */
export const TUI_ONLY_MEMBERS = Object.keys(plainUiMembers(() => {}, "print")) as Array<
  keyof ReturnType<typeof plainUiMembers>
>;
