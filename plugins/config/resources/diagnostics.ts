/**
 * Problems found while reading resources — a skill skipped for breaking the rules, two skills with one
 * name, a --skill path that does not exist, a context file that cannot be read. They never fail a call
 * (a broken skill must not stop the agent); they are reported on the kernel bus instead, each once when
 * it appears rather than on every turn.
 */

/** The bus event carrying a ResourceDiagnostic. */
export const RESOURCES_DIAGNOSTIC_EVENT = "resources:diagnostic";

/** One problem with one resource file. */
export interface ResourceDiagnostic {
  resource: "skill" | "template" | "context" | "system-prompt";
  path: string;
  message: string;
}

/**
 * Remembers which diagnostics a scope (e.g. "skills in /repo") reported last time and passes on only
 * the new ones, so a problem is reported when it appears and again only after it was fixed and came back.
 */
export class DiagnosticReporter {
  private readonly lastSeen = new Map<string, Set<string>>();

  constructor(private readonly report: (diagnostic: ResourceDiagnostic) => void) {}

  /** Records `diagnostics` as the current problems of `scope` and reports those that are new. */
  update(scope: string, diagnostics: ResourceDiagnostic[]): void {
    const previous = this.lastSeen.get(scope) ?? new Set<string>();
    const current = new Set<string>();
    for (const diagnostic of diagnostics) {
      const key = `${diagnostic.resource}\0${diagnostic.path}\0${diagnostic.message}`;
      if (current.has(key)) continue;
      current.add(key);
      if (!previous.has(key)) this.report(diagnostic);
    }
    this.lastSeen.set(scope, current);
  }
}
