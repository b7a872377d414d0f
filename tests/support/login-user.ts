/**
 * A scripted user for account sign-in tests: picks a method in a select prompt, answers text prompts,
 * never pastes a code (waits until the flow no longer asks), and opens auth URLs like a browser that
 * follows the authorize page's redirect to the loopback callback.
 */
import type { LoginEvent, LoginInteraction, LoginPrompt } from "../../contracts/ai/index.js";

/** The user, what it was told, and the callback pages its browser loaded. */
export function scriptedUser(method: string, text = "") {
  const events: LoginEvent[] = [];
  const browsed: Promise<Response>[] = [];
  const interaction: LoginInteraction = {
    signal: new AbortController().signal,
    async prompt(prompt: LoginPrompt) {
      if (prompt.type === "select") return prompt.options.find((o) => o.id === method)!.id;
      if (prompt.type === "manual_code") {
        return new Promise<string>((_resolve, reject) =>
          prompt.signal?.addEventListener("abort", () => reject(new Error("Login cancelled"))),
        );
      }
      return text;
    },
    notify(event) {
      events.push(event);
      if (event.type === "auth_url") {
        browsed.push(fetch(event.url, { redirect: "manual" }).then((answer) => fetch(answer.headers.get("location")!)));
      }
    },
  };
  return { interaction, events, browsed };
}
